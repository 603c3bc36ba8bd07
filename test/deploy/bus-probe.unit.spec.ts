import { describe, expect, it } from 'vitest';
import { judgeConnections, localAddresses, parseProbeArgs } from '../../deploy/probe/bus-probe.mjs';

/** A `/connz?subs=1` answer as nats-server 2.10 gives it (fields the probe reads). */
const connz = (...connections: { name?: string; ip: string; subscriptions_list?: string[] }[]) => ({
  server_id: 'N',
  num_connections: connections.length,
  connections,
});
const HERE = ['10.1.2.3', '127.0.0.1'];

describe('bus probe: judging the NATS connection list', () => {
  it('passes when this host has a connection under the name, serving the context', () => {
    const verdict = judgeConnections(
      connz({ name: 'estates', ip: '10.1.2.3', subscriptions_list: ['_INBOX.x.*', 'cmd.estates.create-estate'] }),
      { name: 'estates', serves: 'estates', addresses: HERE },
    );
    expect(verdict).toEqual({ ok: true, reason: 'connected to NATS as "estates" and serving estates' });
  });

  it("fails when the only such connection is another replica's (another host)", () => {
    const verdict = judgeConnections(connz({ name: 'estates', ip: '10.9.9.9', subscriptions_list: ['cmd.estates.create-estate'] }), {
      name: 'estates',
      serves: 'estates',
      addresses: HERE,
    });
    expect(verdict.ok).toBe(false);
    expect(verdict.reason).toBe('no NATS connection named "estates" from this host (10.1.2.3, 127.0.0.1); 1 from other hosts');
  });

  it('fails while the process is connected but not yet serving its context (still starting)', () => {
    const verdict = judgeConnections(
      connz({ name: 'identity', ip: '10.1.2.3', subscriptions_list: ['_INBOX.abc.*', 'cmd.estates.create-estate'] }),
      { name: 'identity', serves: 'identity', addresses: HERE },
    );
    expect(verdict).toEqual({
      ok: false,
      reason: 'connected to NATS as "identity" but not (yet) subscribed to cmd.identity.* or qry.identity.*',
    });
  });

  it('puts the subject prefix (RENOPATH_NATS_PREFIX) in front, as the bus does on the wire', () => {
    const answer = connz({ name: 'reporting', ip: '10.1.2.3', subscriptions_list: ['prod.qry.reporting.settle'] });
    expect(judgeConnections(answer, { name: 'reporting', serves: 'reporting', prefix: 'prod', addresses: HERE }).ok).toBe(true);
    expect(judgeConnections(answer, { name: 'reporting', serves: 'reporting', prefix: '', addresses: HERE }).ok).toBe(false);
  });

  it('needs only the connection for a process that serves nothing (a calculations worker)', () => {
    expect(
      judgeConnections(connz({ name: 'calculations-worker', ip: '10.1.2.3' }), { name: 'calculations-worker', addresses: HERE }).ok,
    ).toBe(true);
    expect(judgeConnections(connz({ name: 'calculations-all', ip: '10.1.2.3' }), { name: 'calculations-worker', addresses: HERE }).ok).toBe(
      false,
    );
  });

  it('matches an IPv4-mapped IPv6 address and refuses an answer without a connection list', () => {
    expect(judgeConnections(connz({ name: 'estates', ip: '::ffff:10.1.2.3' }), { name: 'estates', addresses: HERE }).ok).toBe(true);
    expect(judgeConnections({ error: 'nope' }, { name: 'estates', addresses: HERE })).toEqual({
      ok: false,
      reason: 'the NATS monitor answered without a connection list',
    });
  });

  it("lists this host's addresses, loopback included", () => {
    expect(localAddresses()).toContain('127.0.0.1');
  });
});

describe('bus probe: arguments', () => {
  it('reads the monitor, name, context, liveness and timeout', () => {
    expect(
      parseProbeArgs(['--monitor', 'http://nats:8222/', '--name', 'estates', '--serves', 'estates', '--live', '--timeout-ms', '500']),
    ).toEqual({ monitor: 'http://nats:8222', name: 'estates', serves: 'estates', live: true, timeoutMs: 500 });
    expect(parseProbeArgs(['--monitor', 'http://nats:8222', '--name', 'calculations-worker'])).toEqual({
      monitor: 'http://nats:8222',
      name: 'calculations-worker',
      serves: null,
      live: false,
      timeoutMs: 2000,
    });
  });

  it('refuses missing or malformed ones with a message naming them', () => {
    expect(() => parseProbeArgs(['--name', 'estates'])).toThrow(/--monitor must be the NATS monitoring address/);
    expect(() => parseProbeArgs(['--monitor', 'http://nats:8222'])).toThrow(/--name is required/);
    expect(() => parseProbeArgs(['--monitor', 'http://nats:8222', '--name'])).toThrow(/--name needs a value/);
    expect(() => parseProbeArgs(['--monitor', 'http://nats:8222', '--name', 'x', '--serves', 'Estates!'])).toThrow(
      /--serves must be a context name/,
    );
    expect(() => parseProbeArgs(['--monitor', 'http://nats:8222', '--name', 'x', '--timeout-ms', '0'])).toThrow(
      /--timeout-ms must be a positive integer/,
    );
    expect(() => parseProbeArgs(['--monitor', 'http://nats:8222', '--name', 'x', '--verbose'])).toThrow(/unknown argument --verbose/);
  });
});
