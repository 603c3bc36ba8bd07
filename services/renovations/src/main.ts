import { runContextProcess } from '@renopath/platform/service/context-process.ts';
import { loadRenovationsConfig } from './config.ts';

/** The renovations service as its own process (distributed mode). */
await runContextProcess({
  name: 'renovations',
  loadConfig: loadRenovationsConfig,
  start: async (config, bus, log) => (await import('./start.ts')).startRenovationsContext(config, bus, log),
});
