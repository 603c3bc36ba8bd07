import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded } from '../src/embedded.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export type Stack = Awaited<ReturnType<typeof startStack>>;

export interface Part {
  name: string;
  content: Buffer | string;
  filename?: string;
  contentType?: string;
}

/** Builds a multipart/form-data body by hand, so tests control every byte (and can break it). */
export function multipart(parts: Part[], boundary = '----renopath-test-boundary-7d1c') {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.contentType ? `Content-Type: ${p.contentType}\r\n` : ''}\r\n`));
    chunks.push(Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The whole embedded service on a fresh data dir, driven through fastify.inject. */
export async function startStack(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'renopath-test-'));
  const running = await startEmbedded({
    RENOPATH_DATA_DIR: dataDir,
    RENOPATH_ADMIN_TOKEN: ADMIN_TOKEN,
    RENOPATH_RATE_LIMIT_PER_SECOND: '0',
    LOG_LEVEL: 'silent',
    ...env,
  }, { wireFidelity: true });
  const app = running.gateway.app;
  const bootstrap = running.bootstrap!;

  const token = async (client_id = bootstrap.client_id, client_secret = bootstrap.client_secret) => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'x-service-client-id': client_id, 'x-service-client-secret': client_secret },
    });
    if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`);
    return res.json().access_token as string;
  };

  const admin = (method: 'POST' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, ...(payload ? { payload: payload as object } : {}) });

  /** A second tenant: an organization with its owner, their client and a token. */
  const tenant = async (name: string, email: string) => {
    const res = await admin('POST', '/admin/organizations', {
      name,
      country: 'NL',
      owner: { email_address: email, first_name: 'Olga', last_name: 'Owner' },
    });
    if (res.statusCode !== 201) throw new Error(`tenant: ${res.statusCode} ${res.body}`);
    const body = res.json();
    return { ...body, token: await token(body.client_id, body.client_secret) };
  };

  const as = (bearer: string) => ({
    get: (url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${bearer}` } }),
    post: (url: string, payload: unknown) => app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${bearer}` }, payload: payload as object }),
    patch: (url: string, payload: unknown) => app.inject({ method: 'PATCH', url, headers: { authorization: `Bearer ${bearer}` }, payload: payload as object }),
    delete: (url: string) => app.inject({ method: 'DELETE', url, headers: { authorization: `Bearer ${bearer}` } }),
    /** A multipart/form-data POST built from parts (see `multipart`). */
    upload: (url: string, parts: Part[]) => {
      const { payload, contentType } = multipart(parts);
      return app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${bearer}`, 'content-type': contentType }, payload });
    },
    /** A POST with raw bytes and a content type of the test's choosing (malformed bodies). */
    raw: (url: string, payload: Buffer | string, contentType: string) =>
      app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${bearer}`, 'content-type': contentType }, payload }),
  });

  /** A token for a new API client of an existing user, with the scopes given. */
  const clientToken = async (user_id: string, scopes?: string[]) => {
    const res = await admin('POST', '/admin/api-clients', { user_id, ...(scopes ? { scopes } : {}) });
    if (res.statusCode !== 201) throw new Error(`client: ${res.statusCode} ${res.body}`);
    const body = res.json();
    return token(body.client_id, body.client_secret);
  };

  return {
    app,
    running,
    bootstrap,
    dataDir,
    token,
    admin,
    tenant,
    as,
    clientToken,
    async close() {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
