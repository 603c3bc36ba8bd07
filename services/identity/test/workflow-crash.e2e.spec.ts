import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Identity's multi-stream workflows (onboarding: organization with owner and client, here the
 * first-start bootstrap; registration of a new address: user, then its claim; an invitation; an
 * address change) killed with SIGKILL right after each of their appends: on restart the process
 * managers (and, for a request cut off before its workflow started, the retry with its key)
 * complete them, every step written once, and the read models equal a clean rebuild.
 */
const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const CHILD = join(ROOT, 'services/identity/test/identity-child.ts');
const CLIENT = { id: '5d1c6a2e-8f3b-4c47-9e0a-7b2d4f6e8a10', secret: 'e'.repeat(64) };
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  token_ok: boolean;
  events: Array<{ type: string; stream: string; data: Record<string, unknown> }>;
  before: Record<string, string[]>;
  after: Record<string, string[]>;
}

/** One life of the identity child; resolves with its signal and, when it finished, its outcome. */
function life(
  dataDir: string,
  env: Record<string, string>,
): Promise<{ signal: NodeJS.Signals | null; outcome: Outcome | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env['PATH'] ?? '',
      RENOPATH_DATA_DIR: dataDir,
      RENOPATH_BOOTSTRAP_CLIENT_ID: CLIENT.id,
      RENOPATH_BOOTSTRAP_CLIENT_SECRET: CLIENT.secret,
      LOG_LEVEL: 'silent',
      ...env,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((done) => {
    child.once('close', (_code, signal) => {
      const line = stdout.trim().split('\n').at(-1);
      done({ signal, outcome: line?.startsWith('{') ? (JSON.parse(line) as Outcome) : null, stderr });
    });
  });
}

const count = (o: Outcome, type: string, where: (data: Record<string, unknown>) => boolean = () => true) =>
  o.events.filter((e) => e.type === type && where(e.data)).length;

const newDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'renopath-identity-crash-'));
  dirs.push(dir);
  return dir;
};

/**
 * A data dir whose first start (the bootstrap: organization, owner, client) completed, made once: the
 * invitation and address-change tests each start from a copy of it, taken while no process has it open.
 */
let bootstrapped: Promise<string> | null = null;
const bootstrappedDataDir = () =>
  (bootstrapped ??= (async () => {
    const dir = newDataDir();
    const first = await life(dir, {});
    expect(first.outcome?.token_ok, first.stderr).toBe(true);
    return dir;
  })());

async function crashThenRecover(crashAfter: string, env: Record<string, string> = {}) {
  const dataDir = newDataDir();
  if (env['INVITE'] || env['EMAIL_CHANGE']) {
    // The organization exists first; only the later workflow is cut off.
    cpSync(await bootstrappedDataDir(), dataDir, { recursive: true });
  }
  const killed = await life(dataDir, { CRASH_AFTER: crashAfter, ...env });
  expect(killed.signal, killed.stderr).toBe('SIGKILL');
  const recovered = await life(dataDir, env);
  expect(recovered.outcome, recovered.stderr).not.toBeNull();
  const outcome = recovered.outcome!;
  expect(outcome.after).toEqual(outcome.before);
  return outcome;
}

describe('identity workflows cut off by kill -9 complete after restart', () => {
  for (const step of ['OnboardingStarted', 'UserRegistered', 'EmailAddressClaimed', 'OrganizationCreated', 'ApiClientIssued']) {
    it(`bootstrap (organization, owner, API client) killed after ${step}`, { timeout: 60_000 }, async () => {
      const o = await crashThenRecover(step);
      expect(o.token_ok).toBe(true);
      for (const type of [
        'OnboardingStarted',
        'UserRegistered',
        'EmailAddressClaimed',
        'OrganizationCreated',
        'OrganizationMemberAdded',
        'ApiClientIssued',
      ]) {
        expect(count(o, type), type).toBe(1);
      }
      const user_id = o.events.find((e) => e.type === 'UserRegistered')!.data['user_id'];
      expect(o.events.find((e) => e.type === 'EmailAddressClaimed')!.data['user_id']).toBe(user_id);
      expect(o.events.find((e) => e.type === 'OrganizationMemberAdded')!.data).toMatchObject({ user_id, member_type: 'OWNER' });
    });
  }

  for (const step of ['UserRegistered', 'EmailAddressClaimed', 'OrganizationMemberInvited']) {
    it(`an invitation of a new address killed after ${step}, retried with its key`, { timeout: 90_000 }, async () => {
      const o = await crashThenRecover(step, { INVITE: '1' });
      const invitee = (d: Record<string, unknown>) => d['email_address'] === 'invitee@example.com';
      expect(count(o, 'UserRegistered', invitee)).toBe(1);
      expect(count(o, 'EmailAddressClaimed', invitee)).toBe(1);
      expect(count(o, 'OrganizationMemberInvited', invitee)).toBe(1);
      const user_id = o.events.find((e) => e.type === 'UserRegistered' && invitee(e.data))!.data['user_id'];
      expect(o.events.find((e) => e.type === 'EmailAddressClaimed' && invitee(e.data))!.data['user_id']).toBe(user_id);
      expect(o.events.find((e) => e.type === 'OrganizationMemberInvited')!.data['user_id']).toBe(user_id);
      expect(o.before['identity_members']!.some((m) => m.includes(String(user_id)) && m.includes('PENDING'))).toBe(true);
    });
  }

  for (const step of ['EmailAddressClaimed', 'UserUpdated', 'EmailAddressReleased']) {
    it(`an address change confirmed by code killed after ${step}: the old address ends released`, { timeout: 90_000 }, async () => {
      const o = await crashThenRecover(step, { EMAIL_CHANGE: '1' });
      const claims = (email: string) =>
        o.events.filter((e) => e.type.startsWith('EmailAddress') && e.data['email_address'] === email).map((e) => e.type);
      const user_id = o.events.find((e) => e.type === 'UserRegistered')!.data['user_id'];
      expect(claims('moved@example.com')).toEqual(['EmailAddressClaimed']);
      expect(claims('demo@renopath.example').at(-1)).toBe('EmailAddressReleased');
      expect(count(o, 'UserUpdated', (d) => (d['changes'] as { email_address?: string }).email_address === 'moved@example.com')).toBe(1);
      expect(
        o.before['identity_users']!.some((u) => u.includes(String(user_id)) && u.includes('"email_address":"moved@example.com"')),
      ).toBe(true);
    });
  }
});
