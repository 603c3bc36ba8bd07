import { createLogger, openBus } from '@renopath/platform/service/adapters.ts';
import { loadIdentityConfig } from './config.ts';
import { startIdentityContext } from './start.ts';

/** The identity service as its own process (distributed mode): it serves the bus, not HTTP. */
const config = loadIdentityConfig();
const log = createLogger(config.platform.logLevel, 'identity');
const bus = await openBus(config.platform, 'identity');
const identity = await startIdentityContext(config, bus, log);
if (config.bootstrap.client_id && config.bootstrap.client_secret) {
  const created = await identity.service.bootstrapIfEmpty(config.bootstrap);
  if (created) log.info({ client_id: created.client_id, organization_id: created.organization_id }, 'bootstrap API client created');
}
log.info('identity service started');

const shutdown = async (signal: string) => {
  log.info({ signal }, 'shutting down');
  await identity.close();
  await bus.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
