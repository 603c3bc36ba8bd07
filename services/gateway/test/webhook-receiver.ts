import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local HTTP server for webhooks at `path`, answering with `answer` (status per call), recording what it got. */
export async function receiver(answer: (n: number) => number, path = '/hook') {
  const calls: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      calls.push({ headers: req.headers, body });
      res.statusCode = answer(calls.length);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    calls,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: () => new Promise((r) => server.close(r)),
  };
}
