import { runContextProcess } from '@renopath/platform/service/context-process.ts';
import { loadCalculationsConfig } from './config.ts';

/**
 * The calculations service as its own process (distributed mode).
 * RENOPATH_CALCULATIONS_ROLE=worker starts only workers; run as many of those as the load needs.
 */
await runContextProcess({
  name: 'calculations',
  loadConfig: loadCalculationsConfig,
  busName: (config) => `calculations-${config.role}`,
  start: async (config, bus, log) => {
    const { startCalculationsContext } = await import('./start.ts');
    const { busWebhookSigner } = await import('./webhooks/job-webhooks.ts');
    return startCalculationsContext(config, bus, log, { signer: busWebhookSigner(bus) });
  },
  startedFields: (config) => ({ role: config.role, workers: config.workers }),
});
