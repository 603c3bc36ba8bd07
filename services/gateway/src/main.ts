import { PlatformEnv, createLogger, openBus, platformConfig } from '@renopath/platform/service/adapters.ts';
import { buildGateway } from './app.ts';
import { loadGatewayConfig } from './config.ts';

/** The gateway as its own process (distributed mode): HTTP in front, the bus behind. */
const config = loadGatewayConfig();
const platform = platformConfig(PlatformEnv.parse(process.env));
const logger = createLogger(config.logLevel, 'gateway');
const bus = await openBus(platform, 'gateway');
const gateway = buildGateway({ bus, config, logger });
await gateway.start();
await gateway.app.listen({ port: config.port, host: config.host });

const shutdown = async (signal: string) => {
  logger.info({ signal }, 'shutting down');
  await gateway.app.close();
  await bus.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
