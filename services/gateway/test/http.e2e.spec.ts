import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './stack.ts';

let stack: Stack;
let token: string;

beforeAll(async () => {
  stack = await startStack();
  token = await stack.token();
});
afterAll(async () => stack?.close());

const orgUrl = () => `/organizations/${stack.bootstrap.organization_id}`;

describe('HTTP behaviour every client relies on', () => {
  it('answers malformed JSON with 400 in the error shape', async () => {
    const res = await stack.app.inject({
      method: 'PATCH',
      url: orgUrl(),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{"name": "x",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: ['body is not valid JSON'] });
  });

  it('answers a body over 1 MiB with 413', async () => {
    const res = await stack.app.inject({
      method: 'PATCH',
      url: orgUrl(),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await stack.app.inject({
      method: 'PATCH',
      url: orgUrl(),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/xml' },
      payload: '<name>x</name>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
  });

  it('answers text/plain and form bodies on JSON endpoints with 415, not a validation error', async () => {
    for (const [type, payload] of [
      ['text/plain', '{"name":"x"}'],
      ['application/x-www-form-urlencoded', 'name=x'],
    ]) {
      const res = await stack.app.inject({
        method: 'PATCH',
        url: orgUrl(),
        headers: { authorization: `Bearer ${token}`, 'content-type': type! },
        payload,
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type', message: [expect.any(String)] });
    }
  });

  it('answers an over-long path id and a broken path escape in the error shape', async () => {
    const long = await stack.app.inject({
      method: 'GET',
      url: `/estates/${'a'.repeat(300)}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(long.statusCode).toBe(404);
    expect(long.json()).toEqual({ statusCode: 404, error: 'Not Found', message: ['not found'] });
    expect(long.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const broken = await stack.app.inject({ method: 'GET', url: '/estates/%E0%A4%A', headers: { authorization: `Bearer ${token}` } });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: ['path is not a valid URL'] });
  });

  it('answers requests the HTTP parser refuses (oversized headers) in the error shape', async () => {
    await stack.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = stack.app.server.address() as AddressInfo;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`GET /users/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(64 * 1024)}\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('close', () => resolve(data));
      socket.on('error', (err) => (data ? resolve(data) : reject(err)));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({
      statusCode: 431,
      error: 'Request Header Fields Too Large',
      message: ['request headers are larger than the server accepts'],
    });
  });

  it('cuts a chunked upload at the 25 MiB limit: the 413 comes before the client has sent much more', { timeout: 60_000 }, async () => {
    const estate = await stack.app.inject({
      method: 'POST',
      url: '/estates',
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'upload limit' },
    });
    expect(estate.statusCode, estate.body).toBe(201);
    if (!stack.app.server.listening) await stack.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = stack.app.server.address() as AddressInfo;
    const MiB = 1024 * 1024;
    const { sent, raw } = await new Promise<{ sent: number; raw: string }>((resolve, reject) => {
      let data = '';
      let sent = 0;
      let done = false;
      const finish = () => done || ((done = true), resolve({ sent, raw: data }));
      const socket = connect(port, '127.0.0.1', async () => {
        socket.write(
          `POST /estates/${estate.json().id}/files HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
            'Content-Type: multipart/form-data; boundary=B\r\nTransfer-Encoding: chunked\r\n\r\n',
        );
        const head = Buffer.from(
          '--B\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n',
        );
        const chunk = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]);
        socket.write(chunk(head));
        const block = chunk(Buffer.alloc(MiB, 0x20));
        // A client that would send 100 MiB, as long as nobody answers.
        while (!done && !data && sent < 100 * MiB && !socket.destroyed) {
          sent += MiB;
          if (!socket.write(block))
            await new Promise((r) => {
              socket.once('drain', r);
              socket.once('close', r);
              socket.once('data', r);
            });
        }
        if (!data && !socket.destroyed) socket.end('0\r\n\r\n');
      });
      socket.on('data', (chunk) => {
        data += chunk;
        // The whole answer is in: done, whether or not the server closes the connection.
        const length = /content-length: (\d+)/i.exec(data)?.[1];
        const body = data.indexOf('\r\n\r\n');
        if (length && body >= 0 && Buffer.byteLength(data.slice(body + 4)) >= Number(length)) finish(), socket.destroy();
      });
      socket.on('close', finish);
      socket.on('error', (err) => (data ? finish() : reject(err)));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 413 /);
    expect(raw).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      message: ['file is larger than the 25 MiB limit'],
    });
    // 25 MiB taken, plus what the sockets' buffers hold: far from the 100 MiB the client meant to send.
    expect(sent).toBeLessThan(50 * MiB);
  });

  it('answers an upload whose body ends inside the file part with 400, and does not wait for the rest', async () => {
    const estate = await stack.app.inject({
      method: 'POST',
      url: '/estates',
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'unterminated upload' },
    });
    const part =
      '--x\r\nContent-Disposition: form-data; name="file"; filename="plan.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 hello';
    for (const body of [part, `${part}\r\n--x`, `${part}\r\n--y--\r\n`]) {
      const res = await stack.app.inject({
        method: 'POST',
        url: `/estates/${estate.json().id}/files`,
        payload: body,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=x' },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });

  it('refuses query parameters a route does not take, as it refuses unknown body fields', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/users/me?debug=1&limit=5', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: ['debug is not an allowed query parameter', 'limit is not an allowed query parameter'],
    });
  });

  it('answers a method a path does not take with 405 and the methods it takes in Allow', async () => {
    const put = await stack.app.inject({
      method: 'PUT',
      url: `/v1/estates/${crypto.randomUUID()}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(put.statusCode).toBe(405);
    expect(put.headers['allow']).toBe('DELETE, GET, HEAD, PATCH');
    expect(put.json()).toMatchObject({
      statusCode: 405,
      error: 'Method Not Allowed',
      message: [expect.stringContaining('PUT is not allowed')],
    });
    const post = await stack.app.inject({ method: 'POST', url: '/v1/organizations/' });
    expect([post.statusCode, post.headers['allow']]).toEqual([405, 'GET, HEAD']);
    // A path that is not served at all stays a 404.
    expect((await stack.app.inject({ method: 'PUT', url: '/v1/nothing-here' })).statusCode).toBe(404);
  });

  it('answers an unknown route with 404 in the error shape', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/no/such/route' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: ['GET /no/such/route is not a route of this API'] });
  });

  it('echoes a sane x-request-id and makes one otherwise', async () => {
    const echoed = await stack.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'crm-req-42' } });
    expect(echoed.headers['x-request-id']).toBe('crm-req-42');
    const insane = await stack.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'bad id <script>' } });
    expect(insane.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const error = await stack.app.inject({ method: 'GET', url: '/nope' });
    expect(error.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('generates /openapi.json from the route table: every declared route, bare and under /v1, with its success status', async () => {
    const doc = (await stack.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const missing = stack.running.gateway.routes.flatMap((route) => {
      const paths =
        route.prefix === 'both' ? [route.path, `/v1${route.path}`] : route.prefix === 'v1' ? [`/v1${route.path}`] : [route.path];
      return paths
        .filter((path) => !doc.paths[path]?.[route.method.toLowerCase()]?.responses?.[String(route.status)])
        .map((path) => `${route.method} ${path}`);
    });
    expect(missing).toEqual([]);
    for (const path of ['/v1/oauth/token', '/health', '/ready', '/v1/downloads/{blob}/{name}']) expect(doc.paths).toHaveProperty([path]);
    expect(doc.paths['/v1/oauth/token'].post.requestBody.required).toBe(false);
    expect(doc.paths['/estates/{estate_id}/files'].post.requestBody.content).toHaveProperty(['multipart/form-data']);
    expect(JSON.stringify(doc)).not.toContain('x-renopath-multipart');
  });

  it('serves health, readiness, the OpenAPI document and the docs page', async () => {
    expect((await stack.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    expect((await stack.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    const doc = (await stack.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const path of [
      '/v1/oauth/token',
      '/users/me',
      '/v1/users/me',
      '/organizations/{organization_id}/members',
      '/admin/organizations',
    ]) {
      expect(doc.paths).toHaveProperty([path]);
    }
    const patch = doc.paths['/organizations/{organization_id}'].patch;
    // Bodies refer to their named contract, which refuses unknown fields as the server does.
    expect(patch.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/UpdateOrganizationBody' });
    expect(doc.components.schemas.UpdateOrganizationBody).toMatchObject({ additionalProperties: false, minProperties: 1 });
    expect(Object.keys(patch.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404']));
    // swagger-ui, served from the assets in its package (no CDN: the service runs offline), reading the same document.
    const docs = await stack.app.inject({ method: 'GET', url: '/docs' });
    expect(docs.headers['content-type']).toMatch(/text\/html/);
    expect(docs.body).toContain('<title>Renopath API</title>');
    const initializer = (await stack.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' })).body;
    expect(Buffer.from(/data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(initializer)?.[1] ?? '', 'base64').toString()).toContain(
      'Renopath',
    );
    expect(docs.body).not.toMatch(/https?:\/\//);
    const bundle = await stack.app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect((await stack.app.inject({ method: 'GET', url: '/docs/json' })).json().paths).toHaveProperty([
      '/organizations/{organization_id}/members',
    ]);
  });

  it('answers 429 with Retry-After once a client exceeds its rate', async () => {
    const limited = await startStack({ RENOPATH_RATE_LIMIT_PER_SECOND: '1', RENOPATH_RATE_LIMIT_BURST: '3' });
    try {
      const t = await limited.token();
      const statuses: number[] = [];
      let retryAfter: string | undefined;
      for (let i = 0; i < 5; i++) {
        const res = await limited.as(t).get('/users/me');
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          retryAfter = res.headers['retry-after'] as string;
          expect(res.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
        }
      }
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(statuses).toContain(429);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
    }
  });
});
