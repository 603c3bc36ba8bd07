import { runContextProcess } from '@renopath/platform/service/context-process.ts';
import { loadIdentityConfig } from './config.ts';

/** The identity service as its own process (distributed mode). */
await runContextProcess({
  name: 'identity',
  loadConfig: loadIdentityConfig,
  start: async (config, bus, log) => {
    const { startIdentityContext } = await import('./start.ts');
    // The bus is served only once the first-start client exists: a gateway that gets an answer can also get a token.
    const identity = await startIdentityContext(config, bus, log, { deferServe: true });
    if (config.bootstrap.client_id && config.bootstrap.client_secret) {
      const created = await identity.service.bootstrapIfEmpty(config.bootstrap);
      if (created) log.info({ client_id: created.client_id, organization_id: created.organization_id }, 'bootstrap API client created');
    }
    await identity.service.serve();
    return identity;
  },
});
