import { loadIdentityConfig } from '@renopath/identity/config.ts';
import { startIdentityContext } from '@renopath/identity/start.ts';
import { localWebhookSigner } from '@renopath/calculations/webhooks/job-webhooks.ts';
import { createLogger, openBlobStore } from '@renopath/platform/service/adapters.ts';
import { loadPlatformConfig } from '@renopath/platform/service/platform-env.ts';
import { createMemoryBus } from '@renopath/platform/memory/memory-bus.ts';
import { observedBus } from '@renopath/platform/observability/instrument.ts';
import { collectProcessMetrics } from '@renopath/platform/observability/metrics.ts';
import { startTracing } from '@renopath/platform/observability/tracing.ts';
import { startMetricsServer } from '@renopath/platform/observability/metrics-server.ts';
import { buildGateway } from './app.ts';
import { eventsOf } from './asyncapi/document.ts';
import { loadGatewayConfig } from './config.ts';
import { checkEmbeddedConfig } from './config-embedded.ts';
import { openGatewayStorage } from './storage.ts';
import { contextThreadsOf, startContextThread, type ContextThread } from './context-threads.ts';
import { startContext, type ThreadableContext } from './context-thread.ts';
import type { Logger } from 'pino';
import type { MemoryBus } from '@renopath/platform/memory/memory-bus.ts';

/**
 * Embedded mode (`npm start`): the gateway and every service in one process, SQLite files under
 * RENOPATH_DATA_DIR and an in-process bus. No server to install.
 */
export interface EmbeddedOptions {
  /** Copy every in-process request and reply through JSON, as NATS would (tests turn it on). */
  wireFidelity?: boolean;
}

export async function startEmbedded(env: NodeJS.ProcessEnv = process.env, options: EmbeddedOptions = {}) {
  // Every context's settings, before anything opens: a wrong value leaves nothing running.
  checkEmbeddedConfig(env);
  const gatewayConfig = loadGatewayConfig(env);
  const identityConfig = loadIdentityConfig(env);
  const inThreads = contextThreadsOf(env);
  const platform = loadPlatformConfig(env);
  const logger = createLogger(gatewayConfig.logLevel, 'renopath');
  // Spans of this thread (the gateway and the contexts beside it); each context thread starts its own.
  startTracing('renopath', { env });
  const bus = createMemoryBus({ copyRequests: options.wireFidelity ?? false });
  // What this thread sends is timed here; each context thread times its own side (context-thread.ts).
  const timed = observedBus(bus);
  collectProcessMetrics();
  // One blob store for the gateway (uploads in, signed downloads out) and the estates service.
  const blobs = await openBlobStore(platform);
  const identity = await startIdentityContext(identityConfig, timed, logger.child({ context: 'identity' }));
  // Some contexts each in a thread of their own (RENOPATH_CONTEXT_THREADS), started side by side: one
  // event loop for the gateway and every context was the limit of an embedded process (docs/architecture.md).
  const threads = await startThreads(inThreads, env, bus, logger).catch(async (error: unknown) => {
    // Nothing half-started is left behind: the caller gets the reason, the process no open stores.
    await identity.close();
    await blobs.close();
    await bus.close();
    throw error;
  });
  const shares = {
    // Reports read estates' media and are served by the gateway: the same blob store.
    blobs,
    // Webhooks are signed with identity's secret in this process; the secret never crosses the bus.
    signer: localWebhookSigner((client_id) => identity.service.webhookSecret(client_id)),
  };
  const here = <C extends ThreadableContext>(context: C) =>
    inThreads.includes(context) ? null : startContext(context, env, timed, logger.child({ context }), shares);
  const estates = await here('estates');
  // Before the bootstrap: its copy of identity and the estates follows their events from the first one.
  const renovations = await here('renovations');
  const calculations = await here('calculations');
  const reporting = await here('reporting');
  const bootstrap = await identity.service.bootstrapIfEmpty(identityConfig.bootstrap);
  const { downloadSecret, idempotencyStore } = await openGatewayStorage(gatewayConfig);
  // The idempotency records are in this process's own data dir: a claim left unfinished there is a dead process's.
  const metricsThreads = threads.map((thread) => thread.metrics);
  const gateway = buildGateway({
    bus: timed,
    config: gatewayConfig,
    metricsThreads,
    overload: platform.overload,
    contextLoops: threads.map((thread) => thread.load),
    logger,
    blobs,
    downloadSecret,
    events: eventsOf(platform),
    idempotencyStore,
    idempotencyExclusive: true,
  });
  await gateway.start();
  const metricsServer = platform.metricsPort
    ? await startMetricsServer(platform.metricsPort, metricsThreads, {
        overload: platform.overload,
        loops: threads.map((thread) => thread.load),
      })
    : null;
  return {
    gateway,
    identity,
    estates,
    renovations,
    calculations,
    reporting,
    /** The contexts running in threads of their own (their objects above are null). */
    threads,
    bus,
    blobs,
    bootstrap,
    config: gatewayConfig,
    async close() {
      await metricsServer?.close();
      await gateway.app.close();
      await idempotencyStore.close();
      // In the reverse of the start order, each where it runs: reporting, calculations, renovations, estates.
      const thread = (context: ThreadableContext) => threads.find((t) => t.context === context);
      await (reporting ?? thread('reporting'))?.close();
      await (calculations ?? thread('calculations'))?.close();
      await (renovations ?? thread('renovations'))?.close();
      await (estates ?? thread('estates'))?.close();
      await identity.close();
      await blobs.close();
      await bus.close();
    },
  };
}

/** Starts the threads side by side; if one fails, the others are stopped before the error is rethrown. */
async function startThreads(
  contexts: ThreadableContext[],
  env: NodeJS.ProcessEnv,
  bus: MemoryBus,
  logger: Logger,
): Promise<ContextThread[]> {
  const started = await Promise.allSettled(contexts.map((context) => startContextThread(context, env, bus, logger)));
  const threads = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(threads.map((t) => t.close()));
    throw failed.reason;
  }
  return threads;
}
