import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchFailedError, FetchLimitError, safeFetch, UnsafeUrlError, type HostLookup, type SafeFetchOptions } from './safe-fetch.ts';

interface TestServer {
  port: number;
  hits: IncomingMessage[];
  close: () => Promise<void>;
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const hits: IncomingMessage[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// A public-looking address for a fake public name; the dial seam points it at the local test server.
const PUBLIC = '93.184.216.34';
const publicName: HostLookup = async (host) => {
  if (host === 'docs.example.test') return [{ address: PUBLIC, family: 4 }];
  if (host === 'inside.example.test') return [{ address: '10.1.2.3', family: 4 }];
  if (host === 'mixed.example.test')
    return [
      { address: PUBLIC, family: 4 },
      { address: '10.1.2.3', family: 4 },
    ];
  throw new Error(`unknown host ${host}`);
};
const toLocal = (a: { address: string; family: 4 | 6 }) => (a.address === PUBLIC ? { address: '127.0.0.1', family: 4 as const } : a);

const base: SafeFetchOptions = { timeoutMs: 5_000, maxBytes: 1_000, allowPrivateNetwork: false };

describe('safeFetch', () => {
  let target: TestServer;
  let front: TestServer;

  beforeAll(async () => {
    target = await serve((req, res) => {
      if (req.url === '/big') {
        res.writeHead(200);
        res.end(Buffer.alloc(5_000, 'x'));
      } else if (req.url === '/big-chunked') {
        // No content-length: the limit must be enforced while the body streams.
        res.writeHead(200, { 'transfer-encoding': 'chunked' });
        for (let i = 0; i < 10; i++) res.write(Buffer.alloc(500, 'y'));
        res.end();
      } else if (req.url === '/slow') {
        res.writeHead(200);
        res.write('start');
        // never ends: the timeout must cut it
      } else if (req.url === '/echo') {
        let body = '';
        req.on('data', (c) => {
          body += c;
        });
        req.on('end', () => res.end(JSON.stringify({ method: req.method, host: req.headers.host, body })));
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('secret inside');
      }
    });
    front = await serve((req, res) => {
      const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
      if (req.url?.startsWith('/relative')) {
        res.writeHead(302, { location: '/echo' });
        res.end();
      } else if (req.url?.startsWith('/loop')) {
        res.writeHead(302, { location: '/loop' });
        res.end();
      } else if (req.url === '/echo') {
        res.end(JSON.stringify({ host: req.headers.host }));
      } else if (to) {
        res.writeHead(302, { location: to });
        res.end();
      } else res.end('front');
    });
  });
  afterAll(async () => {
    await target.close();
    await front.close();
  });

  it('answers a local server when private networks are allowed', async () => {
    const answer = await safeFetch(`http://127.0.0.1:${target.port}/`, { ...base, allowPrivateNetwork: true });
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('secret inside');
    expect(answer.headers['content-type']).toBe('text/plain');
    expect(answer.finalUrl).toBe(`http://127.0.0.1:${target.port}/`);
  });

  it('sends a POST body', async () => {
    const answer = await safeFetch(`http://127.0.0.1:${target.port}/echo`, {
      ...base,
      allowPrivateNetwork: true,
      method: 'POST',
      body: 'hello',
    });
    expect(JSON.parse(answer.body.toString())).toMatchObject({ method: 'POST', body: 'hello' });
  });

  describe('refuses internal destinations before connecting', () => {
    const probes = () => [
      `http://127.0.0.1:${target.port}/`,
      `http://localhost:${target.port}/`,
      `http://[::1]:${target.port}/`,
      `http://10.0.0.1:${target.port}/`,
      'http://169.254.169.254/latest/meta-data/',
      `http://2130706433:${target.port}/`,
      `http://0x7f000001:${target.port}/`,
      `http://0177.0.0.1:${target.port}/`,
      `http://0x7f.1:${target.port}/`,
      `http://127.1:${target.port}/`,
      `http://[::ffff:127.0.0.1]:${target.port}/`,
      `http://0.0.0.0:${target.port}/`,
      `http://100.64.0.1:${target.port}/`,
    ];
    it('for each odd or private form of an internal address', async () => {
      for (const url of probes()) {
        const before = target.hits.length;
        await expect(safeFetch(url, base), url).rejects.toBeInstanceOf(UnsafeUrlError);
        expect(target.hits.length, url).toBe(before);
      }
    });
  });

  it('refuses a public-looking name that resolves to a private address', async () => {
    const err = await safeFetch('http://inside.example.test/', { ...base, lookup: publicName }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsafeUrlError);
    expect((err as UnsafeUrlError).reason).toContain('10.1.2.3');
  });

  it('refuses a name when any one of its addresses is private', async () => {
    await expect(safeFetch('http://mixed.example.test/', { ...base, lookup: publicName })).rejects.toBeInstanceOf(UnsafeUrlError);
  });

  it('refuses schemes other than http and https', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.test/x', 'gopher://example.test/', 'data:text/plain,hi']) {
      await expect(safeFetch(url, base), url).rejects.toBeInstanceOf(UnsafeUrlError);
    }
  });

  it('fetches a public name from the address it checked, resolving only once', async () => {
    let lookups = 0;
    // Rebinding: a second resolution would answer loopback (and the system resolver does not know the name).
    const rebinding: HostLookup = async () => (lookups++ === 0 ? [{ address: PUBLIC, family: 4 }] : [{ address: '127.0.0.1', family: 4 }]);
    const answer = await safeFetch(`http://docs.example.test:${front.port}/echo`, { ...base, lookup: rebinding, dialAddress: toLocal });
    expect(lookups).toBe(1);
    expect(JSON.parse(answer.body.toString())).toEqual({ host: `docs.example.test:${front.port}` });
  });

  it('follows a relative redirect on the same checked host', async () => {
    const answer = await safeFetch(`http://docs.example.test:${front.port}/relative`, {
      ...base,
      lookup: publicName,
      dialAddress: toLocal,
    });
    expect(answer.status).toBe(200);
    expect(answer.finalUrl).toBe(`http://docs.example.test:${front.port}/echo`);
  });

  it('refuses a redirect from an allowed server to a loopback address', async () => {
    const before = target.hits.length;
    const to = encodeURIComponent(`http://127.0.0.1:${target.port}/`);
    const err = await safeFetch(`http://docs.example.test:${front.port}/?to=${to}`, {
      ...base,
      lookup: publicName,
      dialAddress: toLocal,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsafeUrlError);
    expect((err as UnsafeUrlError).url).toBe(`http://127.0.0.1:${target.port}/`);
    expect(target.hits.length).toBe(before);
    expect(front.hits.length).toBeGreaterThan(0);
  });

  it('refuses a redirect to a name that resolves to a private address, and to another scheme', async () => {
    for (const to of ['http://inside.example.test/', 'file:///etc/passwd']) {
      await expect(
        safeFetch(`http://docs.example.test:${front.port}/?to=${encodeURIComponent(to)}`, {
          ...base,
          lookup: publicName,
          dialAddress: toLocal,
        }),
        to,
      ).rejects.toBeInstanceOf(UnsafeUrlError);
    }
  });

  it('stops after the allowed number of redirects', async () => {
    const err = await safeFetch(`http://docs.example.test:${front.port}/loop`, {
      ...base,
      lookup: publicName,
      dialAddress: toLocal,
      maxRedirects: 2,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchLimitError);
    expect((err as FetchLimitError).limit).toBe('redirects');
  });

  it('aborts a body larger than the limit, with or without a declared length', async () => {
    for (const path of ['/big', '/big-chunked']) {
      const err = await safeFetch(`http://127.0.0.1:${target.port}${path}`, { ...base, allowPrivateNetwork: true }).catch(
        (e: unknown) => e,
      );
      expect(err, path).toBeInstanceOf(FetchLimitError);
      expect((err as FetchLimitError).limit, path).toBe('bytes');
    }
  });

  it('gives up when the whole exchange takes longer than the timeout', async () => {
    const err = await safeFetch(`http://127.0.0.1:${target.port}/slow`, { ...base, allowPrivateNetwork: true, timeoutMs: 200 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(FetchLimitError);
    expect((err as FetchLimitError).limit).toBe('time');
  });

  it('reports a refused connection as a failed fetch', async () => {
    const closed = await serve((_req, res) => res.end());
    const port = closed.port;
    await closed.close();
    await expect(safeFetch(`http://127.0.0.1:${port}/`, { ...base, allowPrivateNetwork: true })).rejects.toBeInstanceOf(FetchFailedError);
  });
});
