import { describe, expect, it } from 'vitest';
import { checkEmbeddedConfig } from './config-embedded.ts';

/** The message an operator reads for one bad variable in `npm start`'s environment. */
const refusal = (env: Record<string, string>) => {
  try {
    checkEmbeddedConfig(env);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('embedded configuration, checked before anything starts', () => {
  it('accepts the defaults', () => {
    expect(refusal({})).toBeNull();
  });

  it.each([
    ['PORT', 'abc', /^invalid configuration: PORT: expected a port number from 0 to 65535$/],
    ['RENOPATH_EVENT_STORE', 'bogus://x', /^invalid configuration: RENOPATH_EVENT_STORE: expected "sqlite", postgres:\/\//],
    ['RENOPATH_READ_STORE', 'redis://x', /^invalid configuration: RENOPATH_READ_STORE: expected "sqlite", postgres:\/\/.* or mongodb:\/\//],
    ['RENOPATH_BLOB_STORE', 's3', /^invalid configuration: RENOPATH_BLOB_STORE: expected "fs" or "gridfs"$/],
    [
      'RENOPATH_WEBHOOK_RETRY_SCHEDULE',
      'soon',
      /^invalid configuration: RENOPATH_WEBHOOK_RETRY_SCHEDULE: .*"soon" is not a delay .*units ms, s, m, h\)$/,
    ],
    ['RENOPATH_CONTEXT_THREADS', 'gateway', /^invalid configuration: RENOPATH_CONTEXT_THREADS: gateway cannot run in a thread/],
    ['RENOPATH_SECRETS_KEY', 'short', /^invalid configuration: RENOPATH_SECRETS_KEY: RENOPATH_SECRETS_KEY must be 32 bytes/],
    ['RENOPATH_JOB_LEASE_MS', '10', /^invalid configuration: RENOPATH_JOB_LEASE_MS: /],
    ['RENOPATH_SQLITE_SYNCHRONOUS', 'OFF', /^invalid configuration: RENOPATH_SQLITE_SYNCHRONOUS: .*"FULL"\|"NORMAL"/],
  ])('%s=%s is refused in one line that names it', (name, value, expected) => {
    const message = refusal({ [name]: value });
    expect(message).toMatch(expected);
    expect(message).not.toContain('\n');
  });

  it.each([
    ['RENOPATH_BUS', 'nats://127.0.0.1:4222'],
    ['RENOPATH_NATS_STREAM', 'OTHER'],
    ['RENOPATH_NATS_PREFIX', 'tenant1'],
  ])('refuses %s, a bus setting npm start would ignore', (name, value) => {
    expect(refusal({ [name]: value })).toBe(
      `invalid configuration: ${name}=${value} is for one process per service (npm run start:<service>); npm start runs every context in one process over an in-process bus, so unset it`,
    );
  });

  it('takes RENOPATH_BUS=memory, which is what it does', () => {
    expect(refusal({ RENOPATH_BUS: 'memory' })).toBeNull();
  });
});
