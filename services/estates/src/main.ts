import { runContextProcess } from '@renopath/platform/service/context-process.ts';
import { loadEstatesConfig } from './config.ts';

/**
 * The estates service as its own process (distributed mode). Its blob store must be the gateway's
 * (RENOPATH_BLOB_STORE: a shared volume for `fs`, or GridFS).
 */
await runContextProcess({
  name: 'estates',
  loadConfig: loadEstatesConfig,
  start: async (config, bus, log) => (await import('./start.ts')).startEstatesContext(config, bus, log),
});
