import type Database from 'better-sqlite3';
import type { CheckpointStore } from '../../ports/event-store.ts';
import { openSqlite } from '../sqlite-connection.ts';
import { GroupCommit } from './group-commit.ts';
import { CHECKPOINT_SCHEMA } from './schema.ts';

/** Consumer checkpoints kept in the event store's own file (e.g. for the bus relay). */
export class SqliteCheckpointStore implements CheckpointStore {
  private readonly loadStatement;
  private readonly saveStatement;
  private readonly writes: GroupCommit;
  /** On the event store's connection a save waits for the next group of appends (GroupCommit's `lazy`). */
  private readonly lazy: boolean;

  constructor(
    private readonly db: Database.Database,
    private readonly ownsConnection: boolean,
    /** The event store's group commit when on its connection: a relay's checkpoint joins the appends' commit. */
    writes?: GroupCommit,
  ) {
    this.lazy = writes !== undefined;
    this.writes = writes ?? new GroupCommit(db);
    this.loadStatement = db.prepare<[string], { position: bigint }>('SELECT position FROM consumer_checkpoints WHERE consumer = ?');
    this.saveStatement = db.prepare<[string, bigint]>(
      'INSERT INTO consumer_checkpoints (consumer, position) VALUES (?, ?) ON CONFLICT (consumer) DO UPDATE SET position = excluded.position',
    );
  }

  async load(consumer: string): Promise<bigint> {
    this.writes.beforeCheckpointRead();
    return this.loadStatement.get(consumer)?.position ?? 0n;
  }

  /** Resolves once the checkpoint is committed, with the other writes made meanwhile on the connection. */
  async save(consumer: string, position: bigint): Promise<void> {
    await this.writes.run(() => this.saveStatement.run(consumer, position), { lazy: this.lazy });
  }

  /** Closes the connection if this store opened it; the event store's own `checkpoints` close with it. */
  async close(): Promise<void> {
    if (this.ownsConnection && this.db.open) {
      this.writes.flush();
      this.db.close();
    }
  }
}

/** Checkpoints on their own connection, usually to the event store's file (`events.db`). */
export function openSqliteCheckpointStore(options: { file: string }): SqliteCheckpointStore {
  return new SqliteCheckpointStore(openSqlite(options.file, CHECKPOINT_SCHEMA), true);
}
