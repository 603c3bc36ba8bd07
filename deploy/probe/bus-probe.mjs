#!/usr/bin/env node
/**
 * Health check for the processes that serve the bus and not HTTP (every service but the gateway):
 * they have no port to probe, so this asks the NATS server's monitoring endpoint (`/connz`) whether
 * THIS container's process is connected under its bus name and subscribed to its context's subjects.
 *
 * Asking the bus itself (a request to `qry.<context>.…`) would not do: a queue group lets any replica
 * answer, so a dead replica would look healthy while its sibling runs. The connection list is per
 * process: it is matched by this host's addresses.
 *
 *   node deploy/probe/bus-probe.mjs --monitor http://nats:8222 --name estates --serves estates
 *   node deploy/probe/bus-probe.mjs --monitor http://nats:8222 --name calculations-worker --live
 *
 * `--serves <context>`: also require a subscription to `cmd.<context>.*` or `qry.<context>.*` (the
 * RENOPATH_NATS_PREFIX of the environment in front). `--live`: a monitor that cannot be reached
 * passes, since restarting this process would not bring NATS back; only a reachable server that does
 * not list this process fails (readiness, the default, fails in both cases).
 * Exit code 0 healthy, 1 not, 2 bad arguments; one line on stdout or stderr says why.
 */
import { networkInterfaces } from 'node:os';
import { pathToFileURL } from 'node:url';

const USAGE =
  'usage: bus-probe.mjs --monitor http://nats:8222 --name <bus connection name> [--serves <context>] [--live] [--timeout-ms 2000]';

/** @returns {{ monitor: string, name: string, serves: string | null, live: boolean, timeoutMs: number }} */
export function parseProbeArgs(argv) {
  const options = { monitor: '', name: '', serves: null, live: false, timeoutMs: 2000 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined || next.startsWith('--')) throw new Error(`${arg} needs a value; ${USAGE}`);
      return next;
    };
    if (arg === '--monitor') options.monitor = value().replace(/\/$/, '');
    else if (arg === '--name') options.name = value();
    else if (arg === '--serves') options.serves = value();
    else if (arg === '--live') options.live = true;
    else if (arg === '--timeout-ms') {
      const raw = value();
      options.timeoutMs = Number(raw);
      if (!Number.isInteger(options.timeoutMs) || options.timeoutMs < 1)
        throw new Error(`--timeout-ms must be a positive integer, got ${raw}`);
    } else throw new Error(`unknown argument ${arg}; ${USAGE}`);
  }
  if (!/^https?:\/\/[^/\s]+$/.test(options.monitor))
    throw new Error(`--monitor must be the NATS monitoring address (http://host:8222); ${USAGE}`);
  if (!options.name) throw new Error(`--name is required; ${USAGE}`);
  if (options.serves !== null && !/^[a-z]+$/.test(options.serves))
    throw new Error(`--serves must be a context name (estates), got ${options.serves}`);
  return options;
}

/** IPv4-mapped IPv6 (`::ffff:10.0.0.5`) and a zone suffix would otherwise hide a match. */
const normalise = (address) =>
  address
    .toLowerCase()
    .replace(/^::ffff:/, '')
    .replace(/%.*$/, '');

/**
 * This host's own addresses, as the NATS server sees a connection come from them. Loopback counts
 * too: a process next to the server (same host or network namespace) connects from 127.0.0.1.
 */
export function localAddresses() {
  return Object.values(networkInterfaces())
    .flat()
    .filter((entry) => entry !== undefined)
    .map((entry) => normalise(entry.address));
}

/**
 * Judges a `/connz?subs=1` answer: is there an open connection named `name`, from one of `addresses`,
 * which (with `serves`) holds a subscription to the context's commands or queries?
 * @returns {{ ok: boolean, reason: string }}
 */
export function judgeConnections(connz, { name, serves = null, prefix = '', addresses }) {
  const connections = Array.isArray(connz?.connections) ? connz.connections : null;
  if (!connections) return { ok: false, reason: 'the NATS monitor answered without a connection list' };
  const own = new Set(addresses.map(normalise));
  const mine = connections.filter((c) => c?.name === name && typeof c.ip === 'string' && own.has(normalise(c.ip)));
  if (mine.length === 0) {
    const elsewhere = connections.filter((c) => c?.name === name).length;
    return {
      ok: false,
      reason: `no NATS connection named "${name}" from this host (${[...own].join(', ') || 'no address'})${elsewhere ? `; ${elsewhere} from other hosts` : ''}`,
    };
  }
  if (serves === null) return { ok: true, reason: `connected to NATS as "${name}"` };
  const wire = (subject) => (prefix ? `${prefix}.${subject}` : subject);
  const roots = [wire(`cmd.${serves}.`), wire(`qry.${serves}.`)];
  const serving = mine.some((c) =>
    (c.subscriptions_list ?? []).some((subject) => typeof subject === 'string' && roots.some((root) => subject.startsWith(root))),
  );
  return serving
    ? { ok: true, reason: `connected to NATS as "${name}" and serving ${serves}` }
    : { ok: false, reason: `connected to NATS as "${name}" but not (yet) subscribed to ${roots.map((r) => `${r}*`).join(' or ')}` };
}

async function main() {
  let options;
  try {
    options = parseProbeArgs(process.argv.slice(2));
  } catch (error) {
    console.error(error.message);
    return 2;
  }
  let connz;
  try {
    // The server pages its list (1024 by default): ask for more than any deployment has.
    const response = await fetch(`${options.monitor}/connz?subs=1&limit=100000`, { signal: AbortSignal.timeout(options.timeoutMs) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    connz = await response.json();
  } catch (error) {
    const reason = `the NATS monitor ${options.monitor} cannot be reached (${error instanceof Error ? error.message : String(error)})`;
    if (options.live) {
      console.log(`${reason}: not this process's fault, passing`);
      return 0;
    }
    console.error(reason);
    return 1;
  }
  const verdict = judgeConnections(connz, {
    name: options.name,
    serves: options.serves,
    prefix: process.env.RENOPATH_NATS_PREFIX ?? '',
    addresses: localAddresses(),
  });
  (verdict.ok ? console.log : console.error)(verdict.reason);
  return verdict.ok ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await main();
