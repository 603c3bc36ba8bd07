import { runContextProcess } from '@renopath/platform/service/context-process.ts';
import { loadReportingConfig } from './config.ts';

/**
 * The reporting service as its own process (distributed mode). Its blob store must be the gateway's
 * and estates' (RENOPATH_BLOB_STORE: a shared volume for `fs`, or GridFS).
 */
await runContextProcess({
  name: 'reporting',
  loadConfig: loadReportingConfig,
  start: async (config, bus, log) => (await import('./start.ts')).startReportingContext(config, bus, log),
});
