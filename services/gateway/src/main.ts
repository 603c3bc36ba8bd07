import { PlatformEnv, createLogger, openBlobStore, openBus, platformConfig } from '@renopath/platform/service/adapters.ts';
import { buildGateway } from './app.ts';
import { loadGatewayConfig } from './config.ts';
import { openGatewayStorage } from './storage.ts';

/** The gateway as its own process (distributed mode): HTTP in front, the bus behind. */
const config = loadGatewayConfig();
const platform = platformConfig(PlatformEnv.parse(process.env));
const logger = createLogger(config.logLevel, 'gateway');
const bus = await openBus(platform, 'gateway');
// The blob store the estates service reads uploads from: it must be the same store (a shared volume for `fs`, or GridFS).
const blobs = await openBlobStore(platform, 'blobs');
const { downloadSecret, idempotencyStore } = await openGatewayStorage(config);
const gateway = buildGateway({ bus, config, logger, blobs, downloadSecret, idempotencyStore });
await gateway.start();
await gateway.app.listen({ port: config.port, host: config.host });

const shutdown = async (signal: string) => {
  logger.info({ signal }, 'shutting down');
  await gateway.app.close();
  await idempotencyStore.close();
  await blobs.close();
  await bus.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
