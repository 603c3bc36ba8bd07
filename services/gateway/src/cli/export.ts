import { openContextStorage, type PlatformConfig } from '@renopath/platform/service/adapters.ts';
import { CONTEXTS, contextOfStream, missingStore } from './contexts.ts';

export interface ExportOptions {
  config: PlatformConfig;
  stream: string;
  context?: string | undefined;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
}

/**
 * `renopath export --stream <id>`: the stream's events as JSON lines, in revision order. The context
 * comes from the stream's prefix unless given. Exit code 2 for an unknown context or stream.
 */
export async function exportStream(options: ExportOptions): Promise<number> {
  const { config, stream, out, err } = options;
  if (options.context && !CONTEXTS[options.context]) {
    err.write(`unknown context "${options.context}": one of ${Object.keys(CONTEXTS).join(', ')}\n`);
    return 2;
  }
  const context = options.context ?? contextOfStream(stream);
  if (!context) {
    const prefixes = Object.entries(CONTEXTS)
      .map(([name, entry]) => `${entry.streamPrefixes.join(' ')} (${name})`)
      .join(', ');
    err.write(`unknown stream "${stream}": no context writes streams with its prefix; known prefixes: ${prefixes}; or pass --context\n`);
    return 2;
  }
  const missing = missingStore(config, context);
  if (missing) {
    err.write(`unknown stream "${stream}": there is no ${context} event store at ${missing} (check RENOPATH_DATA_DIR)\n`);
    return 2;
  }
  const storage = await openContextStorage(config, context);
  try {
    const events = await storage.eventStore.readStream(stream);
    if (events.length === 0) {
      err.write(`unknown stream "${stream}": the ${context} event store has no such stream\n`);
      return 2;
    }
    for (const e of events) {
      out.write(
        `${JSON.stringify({
          position: Number(e.position),
          revision: Number(e.revision),
          event_id: e.event_id,
          type: e.type,
          occurred_at: e.occurred_at,
          actor: e.metadata.actor,
          correlation_id: e.metadata.correlation_id,
          causation_id: e.metadata.causation_id,
          data: e.data,
        })}\n`,
      );
    }
    return 0;
  } finally {
    await storage.close();
  }
}
