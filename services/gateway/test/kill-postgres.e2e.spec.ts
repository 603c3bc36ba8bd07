import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { modeUnavailable, startDistributedStack, type DistributedStack, type Service } from './distributed-stack.ts';
import {
  createTargets,
  expectEachWriteOnce,
  nextWrite,
  outcome as classify,
  untilAnswered,
  type Answer,
  type Targets,
  type Write,
} from './keyed-writes.ts';

/**
 * The distributed stack on PostgreSQL under keyed write load (estates, roofs, renovations, items, and
 * estate edits), while one process at a time is SIGKILLed and started again: every write a client saw
 * acknowledged is readable afterwards, none is there twice, every unanswered write retried with its
 * Idempotency-Key lands once, and each context's read models equal a rebuild from its event log.
 */
const VICTIMS: Service[] = ['gateway', 'identity', 'estates', 'renovations', 'calculations', 'reporting'];
const WRITERS = 4;
const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const run = promisify(execFile);

const unavailable = await modeUnavailable('nats-postgres');
if (unavailable) console.warn(`[skip] kill-postgres e2e (SIGKILL of each process under write load, PostgreSQL mode): ${unavailable}`);

/**
 * One process per service by default, so each kill takes its whole context (or the only gateway) away
 * until it is back; RENOPATH_E2E_KILL_REPLICAS=estates:2,gateway:2 runs it against replicas instead
 * (the first replica is the one killed, the others serve on).
 */
function replicas(): Partial<Record<Service, number>> {
  const given = process.env['RENOPATH_E2E_KILL_REPLICAS'] ?? '';
  return Object.fromEntries(
    given
      .split(',')
      .filter(Boolean)
      .map((entry) => [entry.split(':')[0], Number(entry.split(':')[1])]),
  );
}

let stack: DistributedStack;
let token = '';
let targets: Targets;
const writes: Write[] = [];
/** Every 500 answered, whatever came after it. */
const internalErrors: string[] = [];

const send = async (w: Pick<Write, 'key' | 'method' | 'path' | 'body'>, timeoutMs = 20_000) => {
  const gateway = stack.gateways[Math.floor(Math.random() * stack.gateways.length)]!;
  try {
    const res = await fetch(`${gateway}${w.path}`, {
      method: w.method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(w.key ? { 'idempotency-key': w.key } : {}) },
      body: JSON.stringify(w.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    return { status: res.status, text };
  } catch (error) {
    return { status: 0, text: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
};

const get = async (path: string) => {
  const res = await fetch(`${stack.gateways[0]}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as any;
};

/** A 2xx is an acknowledgement; a 4xx other than 409 (claim in progress) and 429 is a wrong request: the test's bug or the service's. */
function outcome(w: Write, res: Answer): 'acknowledged' | 'unanswered' {
  const result = classify(w, res);
  if (result === 'refused') throw new Error(`${w.method} ${w.path} (key ${w.key}) answered ${w.lastError}`);
  if (res.status === 500) internalErrors.push(`${w.method} ${w.path} (key ${w.key}): ${w.lastError}`);
  return result;
}

beforeAll(async () => {
  if (unavailable) return;
  stack = await startDistributedStack({ mode: 'nats-postgres', replicas: replicas(), logLevel: 'info' });
  token = await stack.token();
  targets = await createTargets(send);
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

describe.skipIf(unavailable !== null)('SIGKILL of one process at a time under keyed write load (nats-postgres)', () => {
  for (const victim of VICTIMS) {
    it(`${victim}: killed and restarted under load; every write answered after retries with its key`, { timeout: 240_000 }, async () => {
      onTestFailed(() => console.error(stack.errorLines()));
      // The first started: with replicas, usually the one holding the context's lease (its relay, projections
      // and process managers), so the others must take over; alone, the context is gone until it is back.
      const replica = 0;
      let stop = false;
      const before = writes.length;
      const writers = Array.from({ length: WRITERS }, async (_, w) => {
        const mine: Write[] = [];
        for (let i = 0; !stop; i++) {
          const write = nextWrite('kill', victim, w, i, mine, targets);
          mine.push(write);
          writes.push(write);
          if (outcome(write, await send(write, 15_000)) === 'unanswered') await new Promise((r) => setTimeout(r, 200));
        }
      });
      // Kill at a moment the test does not choose precisely: somewhere in the first second of load.
      await new Promise((r) => setTimeout(r, 300 + Math.floor(Math.random() * 700)));
      await stack.kill(victim, replica, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 500));
      await stack.start(victim, replica);
      // The gateway's key set and the contexts' subscriptions come back: a moment of load on the restarted stack.
      await new Promise((r) => setTimeout(r, 500));
      stop = true;
      await Promise.all(writers);
      const unanswered = writes.slice(before).filter((x) => !x.answer);
      console.info(
        `[kill ${victim}#${replica}] ${writes.length - before} writes under load, ${unanswered.length} unanswered until retried: ${[...new Set(unanswered.map((x) => x.lastError?.slice(0, 60)))].join(' | ')}`,
      );
      for (const write of unanswered) await untilAnswered(write, send);
      expect(unanswered.filter((x) => !x.answer)).toEqual([]);
      expect(internalErrors.splice(0), 'a dead or restarting peer is a 503 or 504 to the client, never a 500').toEqual([]);
    });
  }

  it('then: each answered write is there once, retries answer as the first time, and read models equal a rebuild', {
    timeout: 300_000,
  }, async () => {
    onTestFailed(() => console.error(stack.errorLines()));
    expect(writes.length).toBeGreaterThan(VICTIMS.length * WRITERS);
    await expectEachWriteOnce('kill', writes, targets, send, get);

    // `renopath replay` rebuilds every projection of every context from its log and compares it with the
    // live read model. Projections follow the log asynchronously: the live ones may be a moment behind.
    let last = { code: -1, stdout: '', stderr: '' };
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'services/gateway/src/cli.ts', 'replay'], {
          cwd: ROOT,
          env: { PATH: process.env['PATH'] ?? '', ...stack.storeEnv('estates') },
          maxBuffer: 16 * 1024 * 1024,
        });
        last = { code: 0, stdout, stderr };
        break;
      } catch (error) {
        const e = error as { code: number; stdout: string; stderr: string };
        last = { code: e.code, stdout: e.stdout, stderr: e.stderr };
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
    expect(last.code, `${last.stdout}\n${last.stderr}`).toBe(0);
    for (const context of ['identity', 'estates', 'renovations', 'calculations', 'reporting'])
      expect(last.stdout).toMatch(new RegExp(`^${context}/\\S+: equal`, 'm'));
    expect(last.stdout).not.toMatch(/differ/);
  });
});
