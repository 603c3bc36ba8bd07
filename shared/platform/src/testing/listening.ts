import { connect as connectTcp } from 'node:net';

/**
 * A plain TCP connect to a server's URL: suites that need a real server (PostgreSQL, NATS) skip,
 * saying so, when nothing listens there, instead of failing on a machine without it.
 */
export function tcpListening(address: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(address);
  return new Promise((resolve) => {
    const socket = connectTcp({ host: hostname || '127.0.0.1', port: Number(port || defaultPort), timeout: 500 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

/** The NATS server the bus, lease and replica suites use. */
export const testNatsUrl = process.env['RENOPATH_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';

export const natsListening = (address = testNatsUrl): Promise<boolean> => tcpListening(address, 4222);
