import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PlatformEnv, platformConfig, type PlatformConfig } from '@renopath/platform/service/adapters.ts';
import { contextSchema, openPool } from '@renopath/platform/postgres/postgres-connection.ts';
import type { ProjectionOptions } from '@renopath/platform/projection-runner.ts';
import * as calculations from '@renopath/calculations/projections.ts';
import * as estates from '@renopath/estates/projections.ts';
import * as identity from '@renopath/identity/projections.ts';
import * as renovations from '@renopath/renovations/projections.ts';
import * as reporting from '@renopath/reporting/projections.ts';

export type ProjectionDefinition = Pick<ProjectionOptions, 'name' | 'collections' | 'streamPrefixes' | 'handle'>;

export interface ContextEntry {
  /** The read models rebuilt from the context's own event store. */
  projections: ProjectionDefinition[];
  /** Collections other contexts' events fill over the bus: not rebuildable from this log. */
  mirrored: Array<{ collection: string; from: string }>;
  /** The streams this context writes, by prefix: how `export` finds the store a stream lives in. */
  streamPrefixes: string[];
}

/** Every context with its projections and the stream prefixes of its event store (the deciders' `*Stream` helpers). */
export const CONTEXTS: Record<string, ContextEntry> = {
  identity: {
    projections: identity.PROJECTIONS,
    mirrored: identity.MIRRORED,
    streamPrefixes: ['organization-', 'user-', 'api-client-', 'email-', 'onboarding-'],
  },
  estates: { projections: estates.PROJECTIONS, mirrored: estates.MIRRORED, streamPrefixes: ['estate-', 'external-id-'] },
  renovations: { projections: renovations.PROJECTIONS, mirrored: renovations.MIRRORED, streamPrefixes: ['renovation-'] },
  calculations: {
    projections: calculations.PROJECTIONS,
    mirrored: calculations.MIRRORED,
    streamPrefixes: ['calculation-job-', 'indication-', 'webhook-delivery-'],
  },
  reporting: { projections: reporting.PROJECTIONS, mirrored: reporting.MIRRORED, streamPrefixes: ['report-', 'renovation-passports-'] },
};

/** The context owning `stream`, by its longest matching prefix; null when no context writes such streams. */
export function contextOfStream(stream: string): string | null {
  let best: { context: string; length: number } | null = null;
  for (const [context, entry] of Object.entries(CONTEXTS)) {
    for (const prefix of entry.streamPrefixes) {
      if (stream.startsWith(prefix) && stream.length > prefix.length && (!best || prefix.length > best.length))
        best = { context, length: prefix.length };
    }
  }
  return best?.context ?? null;
}

/** The same environment variables as the services (README.md "Configuration"). */
export function offlineConfig(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const parsed = PlatformEnv.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  return platformConfig(parsed.data);
}

/**
 * Opening a SQLite store creates it when missing: an operator with a mistyped RENOPATH_DATA_DIR
 * would get empty stores and a clean bill of health. So the files must exist beforehand.
 */
export function missingStore(config: PlatformConfig, context: string): string | null {
  if (config.eventStore !== 'sqlite') return null;
  const file = join(config.dataDir, context, 'events.db');
  return existsSync(file) ? null : file;
}

/** Documents with their ids: the read-store port answers documents only, and a comparison needs the keys. */
export interface DocumentSource {
  list(collection: string): Promise<Map<string, unknown>>;
  close(): Promise<void>;
}

export function sqliteDocuments(file: string): DocumentSource {
  if (!existsSync(file)) return { list: async () => new Map(), close: async () => {} };
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const statement = db.prepare<[string], { id: string; doc: string }>('SELECT id, doc FROM documents WHERE collection = ?');
  return {
    async list(collection) {
      return new Map(statement.all(collection).map((row) => [row.id, JSON.parse(row.doc) as unknown]));
    },
    async close() {
      db.close();
    },
  };
}

function postgresDocuments(connectionString: string, context: string): DocumentSource {
  const schema = contextSchema(context);
  const pool = openPool(connectionString, 1);
  return {
    async list(collection) {
      const { rows } = await pool.query<{ id: string; doc: unknown }>(`SELECT id, doc FROM "${schema}".documents WHERE collection = $1`, [
        collection,
      ]);
      return new Map(rows.map((row) => [row.id, row.doc]));
    },
    async close() {
      await pool.end();
    },
  };
}

/** The live read store's documents, wherever RENOPATH_READ_STORE puts them. */
export function liveDocuments(config: PlatformConfig, context: string): DocumentSource {
  return config.readStore === 'sqlite'
    ? sqliteDocuments(join(config.dataDir, context, 'read.db'))
    : postgresDocuments(config.readStore, context);
}
