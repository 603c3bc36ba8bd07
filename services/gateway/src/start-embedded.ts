/** `npm start`: everything in one process. */
import { checkedOrExit } from '@renopath/platform/service/start-up.ts';
import { checkEmbeddedConfig } from './config-embedded.ts';

// Every context's settings before the code that opens stores is even loaded (a few seconds of imports).
checkedOrExit('renopath', () => checkEmbeddedConfig(process.env));
const { startEmbedded } = await import('./embedded.ts');
const { stopTracing } = await import('@renopath/platform/observability/tracing.ts');

const running = await startEmbedded();
const { config, bootstrap } = running;
await running.gateway.app.listen({ port: config.port, host: config.host });
if (bootstrap) {
  // Printed once, on the first start of an empty data dir: the client secret is not stored in clear, and the
  // webhook secret (which verifies the signatures of the client's webhooks) is shown nowhere else without an operator.
  process.stdout.write(
    `\nRenopath first start: a demo organization and API client were created.\n` +
      `  client_id:      ${bootstrap.client_id}\n  client_secret:  ${bootstrap.client_secret}\n` +
      `  webhook_secret: ${bootstrap.webhook_secret}\n` +
      `  get a token:    curl -s -X POST ${config.publicUrl}/v1/oauth/token -H 'x-service-client-id: ${bootstrap.client_id}' -H 'x-service-client-secret: ${bootstrap.client_secret}'\n\n`,
  );
}
const shutdown = async (signal: string) => {
  running.gateway.app.log.info({ signal }, 'shutting down');
  // Not ready from now on, while the requests under way finish.
  running.gateway.drain();
  await running.close();
  await stopTracing();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
