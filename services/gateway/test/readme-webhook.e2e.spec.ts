import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The README's quick start for webhooks, followed as a new user would on a fresh data dir: `npm start`
 * with RENOPATH_ALLOW_PRIVATE_NETWORK=true prints the demo client's id, secret and webhook secret;
 * the sample receiver (`npm run webhook:receive`) is started with that secret; the job of the README's
 * `curl` (its body as written, with its `webhook_url`) is created with a token of the printed client;
 * the receiver prints the verified event. Only the port numbers are changed, to free ones.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
const section = readme.slice(readme.indexOf('### Receive a webhook locally'));

const children: ChildProcess[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'renopath-readme-'));
afterAll(() => {
  for (const child of children) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** Runs a package.json script as `npm run` does (its bin folder on the PATH), collecting what it prints. */
function run(script: string, env: Record<string, string>) {
  const child = spawn('sh', ['-c', scripts[script]!], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PATH: `${join(root, 'node_modules/.bin')}:${process.env['PATH']}`, ...env },
  });
  children.push(child);
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const until = async (pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(out);
      if (match) return match;
      if (child.exitCode !== null) throw new Error(`${script} exited ${child.exitCode}: ${out}`);
      if (Date.now() > deadline) throw new Error(`${script}: no ${pattern} within ${timeoutMs} ms: ${out}`);
      await new Promise((done) => setTimeout(done, 100));
    }
  };
  return { until, output: () => out };
}

describe("the README's webhook steps", () => {
  it('give a new user a verified webhook from a local receiver', async () => {
    // What the README asks for, in its own words.
    expect(section).toContain('RENOPATH_ALLOW_PRIVATE_NETWORK=true npm start');
    expect(section).toContain('npm run -s webhook:receive');
    const body = /-d '(\{[^']*"webhook_url"[^']*\})'/.exec(section)?.[1];
    expect(body).toBeDefined();

    const port = await freePort();
    const service = run('start', {
      RENOPATH_ALLOW_PRIVATE_NETWORK: 'true',
      RENOPATH_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RENOPATH_CONTEXT_THREADS: 'none',
    });
    const printed = await service.until(/client_id:\s+(\S+)\s+client_secret:\s+(\S+)\s+webhook_secret:\s+(whsec_\S+)/, 150_000);
    const [, clientId, clientSecret, webhookSecret] = printed;

    const receiverPort = await freePort();
    const receiver = run('webhook:receive', { RENOPATH_WEBHOOK_SECRET: webhookSecret!, WEBHOOK_PORT: String(receiverPort) });
    await receiver.until(/receiving webhooks/, 60_000);

    const base = `http://127.0.0.1:${port}`;
    const token = await fetch(`${base}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'x-service-client-id': clientId!, 'x-service-client-secret': clientSecret! },
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const job = await fetch(`${base}/v1/calculation-jobs/suggested-renovation-trajectory-calculation`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: body!.replace('127.0.0.1:9009', `127.0.0.1:${receiverPort}`),
    });
    expect(job.status).toBe(200);
    const { id } = (await job.json()) as { id: string };

    const line = await receiver.until(/^\{"verified":.*\}$/m, 120_000);
    expect(JSON.parse(line[0])).toMatchObject({ verified: true, type: 'calculation_job.finished', job_id: id, status: 'FINISHED' });
  }, 360_000);
});
