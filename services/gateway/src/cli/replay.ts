import { isDeepStrictEqual } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteReadStore, type EventStore, type ReadStore } from '@renopath/platform';
import { openContextStorage, type PlatformConfig } from '@renopath/platform/service/adapters.ts';
import { runProjection } from '@renopath/platform/projection-runner.ts';
import { CONTEXTS, liveDocuments, missingStore, sqliteDocuments, type DocumentSource, type ProjectionDefinition } from './contexts.ts';

/** How many differing documents a projection's report names. */
const SHOWN_DOCUMENTS = 10;
/** How many differing fields a document's diff shows. */
const SHOWN_FIELDS = 3;
const VALUE_WIDTH = 60;

export interface ReplayOptions {
  config: PlatformConfig;
  context?: string | undefined;
  apply: boolean;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface DocumentDifference {
  collection: string;
  id: string;
  /** `only in live`, `only in rebuild`, or the differing fields. */
  diff: string;
}

/** Field paths where `live` and `rebuilt` differ, with both values, in key order; at most `limit`. */
export function diffDocuments(live: unknown, rebuilt: unknown, limit = SHOWN_FIELDS): string[] {
  const found: string[] = [];
  const show = (value: unknown) => {
    const text = value === undefined ? 'absent' : JSON.stringify(value);
    return text.length > VALUE_WIDTH ? `${text.slice(0, VALUE_WIDTH - 1)}…` : text;
  };
  const walk = (a: unknown, b: unknown, path: string) => {
    if (found.length >= limit || isDeepStrictEqual(a, b)) return;
    const bothObjects = a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b);
    if (!bothObjects) {
      found.push(`${path || '(document)'}: live ${show(a)}, rebuilt ${show(b)}`);
      return;
    }
    const keys = [...new Set([...Object.keys(a as object), ...Object.keys(b as object)])].sort();
    for (const key of keys) {
      const child = Array.isArray(a) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], child);
    }
  };
  walk(live, rebuilt, '');
  return found;
}

/** Every document of `collections` that differs between the two sources, by collection then id. */
export async function compareCollections(
  collections: string[],
  live: DocumentSource,
  rebuilt: DocumentSource,
): Promise<{ compared: number; differences: DocumentDifference[] }> {
  const differences: DocumentDifference[] = [];
  let compared = 0;
  for (const collection of collections) {
    const [a, b] = [await live.list(collection), await rebuilt.list(collection)];
    const ids = [...new Set([...a.keys(), ...b.keys()])].sort();
    compared += ids.length;
    for (const id of ids) {
      if (!b.has(id)) differences.push({ collection, id, diff: 'only in live' });
      else if (!a.has(id)) differences.push({ collection, id, diff: 'only in rebuild' });
      else if (!isDeepStrictEqual(a.get(id), b.get(id)))
        differences.push({ collection, id, diff: diffDocuments(a.get(id), b.get(id)).join('; ') });
    }
  }
  return { compared, differences };
}

/** `[#####-----] 1200/4000 events  850 ev/s`: rewritten in place on a terminal, the last state once otherwise. */
function progressBar(err: ReplayOptions['err'], label: string, head: bigint) {
  const started = Date.now();
  let last = '';
  const render = (done: bigint) => {
    const ratio = head > 0n ? Number(done) / Number(head) : 1;
    const width = 24;
    const filled = Math.min(width, Math.round(ratio * width));
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const rate = Math.round(Number(done) / seconds);
    return `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${head} events  ${rate} ev/s`;
  };
  return {
    update(done: bigint) {
      if (!err.isTTY) return;
      last = render(done);
      err.write(`\r${last}`);
    },
    finish(done: bigint) {
      const line = render(done);
      err.write(err.isTTY ? `\r${line.padEnd(last.length)}\n` : `${line}\n`);
    },
  };
}

/** Runs one projection over the whole log into `readStore`; resolves at the head, rejects on the first failing event. */
async function replayInto(
  definition: ProjectionDefinition,
  eventStore: EventStore,
  readStore: ReadStore,
  head: bigint,
  label: string,
  err: ReplayOptions['err'],
) {
  let failure: Error | undefined;
  const projection = runProjection({
    ...definition,
    eventStore,
    readStore,
    retry: { initialDelayMs: 10, maxDelayMs: 10 },
    onError: (error, event) => {
      failure ??= new Error(
        `${label}: event ${event?.position ?? '?'} (${event?.type ?? 'reading the log'}) failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    },
  });
  const bar = progressBar(err, label, head);
  const ticker = setInterval(() => bar.update(projection.position < 0n ? 0n : projection.position), 200);
  try {
    // The runner retries a failing event for ever; a replay stops at the first failure instead.
    await new Promise<void>((resolve, reject) => {
      const check = setInterval(() => {
        if (failure) {
          clearInterval(check);
          reject(failure);
        }
      }, 50);
      projection.waitFor(head).then(
        () => {
          clearInterval(check);
          resolve();
        },
        (error: unknown) => {
          clearInterval(check);
          reject(error);
        },
      );
    });
    bar.finish(head);
  } finally {
    clearInterval(ticker);
    await projection.close();
  }
}

/**
 * `renopath replay`: rebuilds each projection from the event log into a scratch SQLite read store,
 * compares it with the live read store and, with `apply`, rebuilds the live one where they differ.
 * Exit code: 0 all equal (or applied), 1 a difference left as it is, 2 a usage error.
 */
export async function replay(options: ReplayOptions): Promise<number> {
  const { config, out, err } = options;
  const names = options.context ? [options.context] : Object.keys(CONTEXTS);
  if (options.context && !CONTEXTS[options.context]) {
    err.write(`unknown context "${options.context}": one of ${Object.keys(CONTEXTS).join(', ')}\n`);
    return 2;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'renopath-replay-'));
  let differing = false;
  let opened = 0;
  try {
    for (const context of names) {
      const entry = CONTEXTS[context]!;
      const missing = missingStore(config, context);
      if (missing) {
        out.write(`${context}: no event store at ${missing}, skipped\n`);
        continue;
      }
      opened += 1;
      const storage = await openContextStorage(config, context);
      const live = liveDocuments(config, context);
      try {
        const head = await storage.eventStore.headPosition();
        for (const definition of entry.projections) {
          const label = `${context}/${definition.name}`;
          const file = join(scratch, `${context}-${definition.name}.db`);
          const fresh = openSqliteReadStore({ file, synchronous: 'NORMAL' });
          try {
            await replayInto(definition, storage.eventStore, fresh, head, label, err);
          } finally {
            await fresh.close();
          }
          const rebuilt = sqliteDocuments(file);
          const checkpoint = await storage.readStore.loadCheckpoint(definition.name);
          let result: Awaited<ReturnType<typeof compareCollections>>;
          try {
            result = await compareCollections(definition.collections, live, rebuilt);
          } finally {
            await rebuilt.close();
          }
          const { compared, differences } = result;
          if (differences.length === 0) {
            out.write(`${label}: equal (${compared} documents, ${head} events)\n`);
            continue;
          }
          const behind = checkpoint < head ? ` (live checkpoint ${checkpoint} of ${head}: the service had not caught up)` : '';
          out.write(`${label}: ${differences.length} of ${compared} documents differ${behind}\n`);
          for (const d of differences.slice(0, SHOWN_DOCUMENTS)) out.write(`  ${d.collection}/${d.id}: ${d.diff}\n`);
          if (differences.length > SHOWN_DOCUMENTS) out.write(`  … and ${differences.length - SHOWN_DOCUMENTS} more\n`);
          if (!options.apply) {
            differing = true;
            continue;
          }
          const projection = runProjection({ ...definition, eventStore: storage.eventStore, readStore: storage.readStore });
          try {
            await projection.rebuild();
          } finally {
            await projection.close();
          }
          out.write(`${label}: live read model rebuilt from the log\n`);
        }
        for (const { collection, from } of entry.mirrored)
          out.write(`${context}/${collection}: fed by events from ${from}, not rebuilt here\n`);
      } finally {
        await live.close();
        await storage.close();
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (opened === 0) {
    err.write(`no event store found under ${config.dataDir} (RENOPATH_DATA_DIR)\n`);
    return 2;
  }
  return differing ? 1 : 0;
}
