import { parseArgs } from 'node:util';
import { offlineConfig } from './cli/contexts.ts';
import { exportStream } from './cli/export.ts';
import { portfolioCommand } from './cli/portfolio.ts';
import { replay } from './cli/replay.ts';

/**
 * `renopath`: the operators' command-line tool. Most commands wrap the admin API (docs/http-contract.md "Authentication, roles and rate limits"), so they
 * work the same against an embedded or a distributed deployment; `replay` and `export` open a
 * context's stores directly (cli/), for when the service is down or on a copy of its data.
 */
const USAGE = `usage: renopath <command> [options]

  org create --name NAME --country BE|NL --owner-email EMAIL --owner-first-name NAME --owner-last-name NAME
  client create --user USER_ID [--organization ORG_ID] [--scopes estates,renovations,...]
  client revoke CLIENT_ID
  client rotate-webhook-secret CLIENT_ID     a new webhook signing secret, shown once
  outbox [--to EMAIL] [--limit N]            messages waiting in the outbox (embedded mode: invitations, address confirmations)

environment of the commands above: RENOPATH_URL (default http://localhost:8080), RENOPATH_ADMIN_TOKEN (required)

  portfolio FILE.csv --out RESULTS.csv [--name NAME]
                                           a portfolio run of the file's homes: progress (rows, homes/s, ETA), the
                                           results written to RESULTS.csv, the summary tables; exit 1 unless FINISHED.
                                           As an API client: RENOPATH_TOKEN, or RENOPATH_CLIENT_ID and RENOPATH_CLIENT_SECRET

offline commands: they open the stores directly, with the services' own RENOPATH_DATA_DIR, RENOPATH_EVENT_STORE
and RENOPATH_READ_STORE; run them while the service is stopped, or on a copy of its data.

  replay [--context NAME] [--apply]        rebuild each projection from the event log and compare it with the live
                                           read store: "equal" or the differing documents; exit 1 on a difference.
                                           --apply rebuilds the live read models that differ (exit 0)
  export --stream ID [--context NAME]      the stream's events as JSON lines; the context comes from the stream
                                           prefix (estate-, renovation-, calculation-job-, ...); exit 2 when unknown

contexts: identity, estates, renovations, calculations, reporting`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      country: { type: 'string' },
      'owner-email': { type: 'string' },
      'owner-first-name': { type: 'string' },
      'owner-last-name': { type: 'string' },
      user: { type: 'string' },
      organization: { type: 'string' },
      scopes: { type: 'string' },
      to: { type: 'string' },
      limit: { type: 'string' },
      context: { type: 'string' },
      apply: { type: 'boolean' },
      stream: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [noun, verb, arg] = positionals;
  if (values.help || !noun) return print(USAGE, 0);
  const io = { out: process.stdout, err: process.stderr };
  if (noun === 'replay' && !verb) return replay({ ...io, config: offlineConfig(), context: values.context, apply: values.apply ?? false });
  if (noun === 'export' && !verb) {
    if (!values.stream) return print(USAGE, 2);
    return exportStream({ ...io, config: offlineConfig(), stream: values.stream, context: values.context });
  }
  const base = (process.env['RENOPATH_URL'] ?? 'http://localhost:8080').replace(/\/$/, '');
  if (noun === 'portfolio' && verb && !arg) {
    if (!values.out) return print(USAGE, 2);
    return portfolioCommand({ ...io, base, file: verb, outFile: values.out, ...(values.name ? { name: values.name } : {}) });
  }
  const token = process.env['RENOPATH_ADMIN_TOKEN'];
  if (!token) return print('RENOPATH_ADMIN_TOKEN is not set', 2);

  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    process.stdout.write(`${text}\n`);
    return res.ok ? 0 : 1;
  };

  if (noun === 'org' && verb === 'create') {
    return send('POST', '/admin/organizations', {
      name: values.name,
      country: values.country,
      owner: { email_address: values['owner-email'], first_name: values['owner-first-name'], last_name: values['owner-last-name'] },
    });
  }
  if (noun === 'client' && verb === 'create') {
    return send('POST', '/admin/api-clients', {
      user_id: values.user,
      ...(values.organization ? { organization_id: values.organization } : {}),
      ...(values.scopes ? { scopes: values.scopes.split(',').map((s) => s.trim()) } : {}),
    });
  }
  if (noun === 'client' && verb === 'revoke' && arg) return send('DELETE', `/admin/api-clients/${encodeURIComponent(arg)}`);
  if (noun === 'client' && verb === 'rotate-webhook-secret' && arg)
    return send('POST', `/admin/api-clients/${encodeURIComponent(arg)}/webhook-secret`);
  if (noun === 'outbox' && !verb) {
    const query = new URLSearchParams({
      ...(values.to ? { to: values.to } : {}),
      ...(values.limit ? { limit: values.limit } : {}),
    }).toString();
    return send('GET', `/admin/outbox${query ? `?${query}` : ''}`);
  }
  return print(USAGE, 2);
}

function print(text: string, code: number) {
  (code === 0 ? process.stdout : process.stderr).write(`${text}\n`);
  return code;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`renopath: ${err.message}\n`);
    process.exit(1);
  },
);
