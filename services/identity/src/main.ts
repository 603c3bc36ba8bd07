import { createLogger, openBus } from '@renopath/platform/service/adapters.ts';
import { keepRunningOnUncaughtErrors, untilAvailable } from '@renopath/platform/service/start-up.ts';
import { loadIdentityConfig } from './config.ts';
import { startIdentityContext } from './start.ts';

/** The identity service as its own process (distributed mode): it serves the bus, not HTTP. */
const config = loadIdentityConfig();
const log = createLogger(config.platform.logLevel, 'identity');
const guard = keepRunningOnUncaughtErrors(log);
// The bus may come up after this process: wait for it rather than exit.
const bus = await untilAvailable('the bus', () => openBus(config.platform, 'identity', log), log);
// The bus is served only once the first-start client exists: a gateway that gets an answer can also get a token.
const identity = await startIdentityContext(config, bus, log, { deferServe: true });
if (config.bootstrap.client_id && config.bootstrap.client_secret) {
  const created = await identity.service.bootstrapIfEmpty(config.bootstrap);
  if (created) log.info({ client_id: created.client_id, organization_id: created.organization_id }, 'bootstrap API client created');
}
await identity.service.serve();
log.info('identity service started');
guard.started();

const shutdown = async (signal: string) => {
  log.info({ signal }, 'shutting down');
  await identity.close();
  await bus.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
