/**
 * Child process of the crash tests: the embedded service on the data dir its environment names,
 * listening on 127.0.0.1 (a free port), printing `listening <port>` once it serves.
 *
 * With RENOPATH_TEST_CRASH_AFTER_KEY=<prefix>, the process SIGKILLs itself as soon as a service
 * answers a request whose Idempotency-Key starts with <prefix>: the write is stored, its answer
 * never leaves. The hook lives here, in the test, not in the service.
 */
import type { Bus } from '@renopath/platform';
import { startEmbedded } from '../src/embedded.ts';

const running = await startEmbedded(process.env);
const crashPrefix = process.env['RENOPATH_TEST_CRASH_AFTER_KEY'];
if (crashPrefix) {
  const bus = running.bus as Bus;
  const request = bus.request.bind(bus);
  // The gateway calls bus.request on this object: the answer arrives, then the process dies.
  bus.request = (async (subject: string, payload: unknown, options?: unknown) => {
    const reply = await request(subject, payload as never, options as never);
    const key = (payload as { idempotency_key?: string }).idempotency_key ?? '';
    if (key.split(':').slice(2).join(':').startsWith(crashPrefix)) process.kill(process.pid, 'SIGKILL');
    return reply;
  }) as Bus['request'];
}
const address = await running.gateway.app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${new URL(address).port}\n`);
