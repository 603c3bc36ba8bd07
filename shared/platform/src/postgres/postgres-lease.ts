import pg from 'pg';
import { assertLeaseName, HeldLease, type Lease, type LeaseStore } from '../ports/lease.ts';

export interface PostgresLeaseStoreOptions {
  connectionString: string;
  /**
   * How often a holder checks its connection (ms, default 1000). The server drops a dead client's
   * session, and with it the lock, on its own; this bounds how long a holder whose connection died
   * unseen (no error from the socket) goes on believing it holds the lease.
   */
  heartbeatMs?: number;
}

/** Lease locks use the two-key form, a key space apart from the one-key locks of the stores' DDL and appends. */
const KEY_SPACE = 'renopath-lease';
const LOCK_SQL = 'SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS ok';
const UNLOCK_SQL = 'SELECT pg_advisory_unlock(hashtext($1), hashtext($2))';

interface Session {
  client: pg.Client;
  lease: HeldLease | null;
  heartbeat: NodeJS.Timeout | null;
}

/**
 * Leases as session-level advisory locks (`pg_try_advisory_lock`), each on a connection of its own:
 * the server releases the lock when the holder's connection ends, so a process that dies (or loses
 * the server) hands the lease over without cooperating. A holder whose connection fails, or fails a
 * heartbeat, is told through `lost` at once.
 */
export class PostgresLeaseStore implements LeaseStore {
  private readonly sessions = new Map<string, Session>();
  private readonly heartbeatMs: number;
  private closed = false;

  constructor(private readonly options: PostgresLeaseStoreOptions) {
    this.heartbeatMs = options.heartbeatMs ?? 1000;
    if (!Number.isFinite(this.heartbeatMs) || this.heartbeatMs < 10)
      throw new TypeError(`invalid lease heartbeat ${options.heartbeatMs} ms: at least 10`);
  }

  async tryAcquire(name: string): Promise<Lease | null> {
    assertLeaseName(name);
    if (this.closed) throw new Error('lease store is closed');
    const existing = this.sessions.get(name);
    // A session-level lock is re-entrant: the same connection would "take" it again.
    if (existing?.lease?.held) return null;
    const session = existing ?? (await this.connect(name));
    const { rows } = await session.client.query<{ ok: boolean }>(LOCK_SQL, [KEY_SPACE, name]);
    if (!rows[0]?.ok) return null;
    if (this.closed || this.sessions.get(name) !== session) {
      // Closed (or broken) while the lock was being taken: give it back rather than hold it unseen.
      this.drop(name, session, 'lease store closed');
      return null;
    }
    const lease: HeldLease = new HeldLease(name, async () => {
      this.stopHeartbeat(session);
      session.lease = null;
      try {
        await session.client.query(UNLOCK_SQL, [KEY_SPACE, name]);
      } catch {
        // Ending the connection releases the lock too.
        this.drop(name, session, 'unlock failed');
      }
    });
    session.lease = lease;
    session.heartbeat = setInterval(() => {
      session.client.query('SELECT 1').catch((err: unknown) => this.drop(name, session, `heartbeat failed: ${(err as Error).message}`));
    }, this.heartbeatMs);
    session.heartbeat.unref();
    return lease;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const sessions = [...this.sessions.entries()];
    for (const [name, session] of sessions) {
      await session.lease?.release();
      this.sessions.delete(name);
      this.stopHeartbeat(session);
      await session.client.end().catch(() => undefined);
    }
  }

  private async connect(name: string): Promise<Session> {
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: 'renopath-lease',
      keepAlive: true,
      // A query the server does not answer in time counts as a lost connection.
      query_timeout: Math.max(1000, this.heartbeatMs * 2),
    });
    const session: Session = { client, lease: null, heartbeat: null };
    client.on('error', (err) => this.drop(name, session, `connection error: ${err.message}`));
    client.on('end', () => this.drop(name, session, 'connection ended'));
    await client.connect();
    this.sessions.set(name, session);
    return session;
  }

  /** The connection is unusable: the lease (if any) is lost now, and the next try opens a new one. */
  private drop(name: string, session: Session, reason: string): void {
    if (this.sessions.get(name) === session) this.sessions.delete(name);
    this.stopHeartbeat(session);
    session.lease?.markLost(reason);
    session.lease = null;
    // Also ends the session on the server when it still lives: no lock may outlive our belief.
    void session.client.end().catch(() => undefined);
  }

  private stopHeartbeat(session: Session): void {
    if (session.heartbeat) clearInterval(session.heartbeat);
    session.heartbeat = null;
  }
}

export async function openPostgresLeaseStore(options: PostgresLeaseStoreOptions): Promise<PostgresLeaseStore> {
  return new PostgresLeaseStore(options);
}
