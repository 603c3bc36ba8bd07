import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  PENDING_VARIABLES,
  ROOT,
  SERVICES,
  checkCompose,
  checkK8s,
  composeVariables,
  execForm,
  imageProblem,
  interpolate,
  k8sFiles,
  loadConfigLoaders,
  parseDockerfile,
  parseYamlFile,
  productionDependencies,
  readRepoFile,
  runtimeImports,
  variablesReadBy,
  type DockerStage,
} from './manifests.ts';

/** What an operator puts in .env (compose) or the Secret (Kubernetes): valid values of each kind. */
const OPERATOR_VALUES: Record<string, string> = {
  RENOPATH_DOWNLOAD_SIGNING_SECRET: 'd'.repeat(48),
  RENOPATH_SECRETS_KEY: 'ab'.repeat(32),
  RENOPATH_ADMIN_TOKEN: 'admin-token-for-tests',
  RENOPATH_POSTGRES_PASSWORD: 'test-password',
};
const COMPOSE_FILES = readdirSync(ROOT)
  .filter((f) => /^docker-compose.*\.ya?ml$/.test(f))
  .sort();
const K8S = k8sFiles();
const k8sObjects = () => K8S.files.flatMap((file) => parseYamlFile(join('deploy', 'k8s', file)));
const secretValue = (_secret: string, key: string) => OPERATOR_VALUES[key];
const clone = <T>(value: T): T => structuredClone(value);

const composeOf = (file: string) => {
  const raw = parseYamlFile(file)[0]!;
  return { raw, doc: interpolate(raw, OPERATOR_VALUES) as Record<string, any> };
};

beforeAll(async () => {
  await loadConfigLoaders();
});

describe('docker compose files', () => {
  it('exist: the KurrentDB + MongoDB one and the PostgreSQL one', () => {
    expect(COMPOSE_FILES).toEqual(['docker-compose.postgres.yml', 'docker-compose.yml']);
  });

  it.each(COMPOSE_FILES)('%s is a valid compose file whose services are consistent with the code', (file) => {
    const { raw, doc } = composeOf(file);
    expect(checkCompose(file, raw, doc)).toEqual([]);
  });

  it.each(COMPOSE_FILES)('%s starts every service, a calculations worker, the stores and the bus', (file) => {
    const { doc } = composeOf(file);
    const commands = Object.values(doc['services'])
      .map((s: any) => s.command?.[0])
      .filter(Boolean);
    for (const service of SERVICES) expect(commands).toContain(`services/${service}/src/main.ts`);
    expect(doc['services']['calculations-worker']?.environment?.RENOPATH_CALCULATIONS_ROLE).toBe('worker');
    expect(Object.keys(doc['services'])).toEqual(
      expect.arrayContaining(['nats', 'redis', ...(file.includes('postgres') ? ['postgres'] : ['kurrentdb', 'mongo'])]),
    );
  });

  it('selects KurrentDB, MongoDB, GridFS and NATS in docker-compose.yml, PostgreSQL in docker-compose.postgres.yml', () => {
    const env = (file: string) => composeOf(file).doc['services']['estates'].environment;
    expect(env('docker-compose.yml')).toMatchObject({
      RENOPATH_EVENT_STORE: expect.stringMatching(/^esdb:\/\/kurrentdb:2113/),
      RENOPATH_READ_STORE: expect.stringMatching(/^mongodb:\/\/mongo:27017\/.*replicaSet=rs0/),
      RENOPATH_BLOB_STORE: 'gridfs',
      RENOPATH_BUS: 'nats://nats:4222',
    });
    expect(env('docker-compose.postgres.yml')).toMatchObject({
      RENOPATH_EVENT_STORE: 'postgres://renopath:test-password@postgres:5432/renopath',
      RENOPATH_READ_STORE: 'postgres://renopath:test-password@postgres:5432/renopath',
      RENOPATH_BLOB_STORE: 'fs',
    });
  });

  it.each(COMPOSE_FILES)('%s refuses to start without the secrets (docker compose reports the missing variable)', (file) => {
    const { raw } = composeOf(file);
    expect(() => interpolate(raw, {})).toThrow(
      /required variable RENOPATH_(DOWNLOAD_SIGNING_SECRET|SECRETS_KEY|POSTGRES_PASSWORD) is missing/,
    );
  });

  it('deploy/compose.env.example names every variable the compose files take from the environment', () => {
    const example = readRepoFile('deploy/compose.env.example');
    const listed = new Set([...example.matchAll(/^([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
    const used = new Set(COMPOSE_FILES.flatMap((file) => [...composeVariables(readRepoFile(file))]));
    expect([...used].filter((name) => !listed.has(name))).toEqual([]);
  });

  describe('each check reports a broken copy', () => {
    const file = 'docker-compose.yml';
    const broken = (change: (doc: Record<string, any>) => void, rawChange?: (raw: Record<string, any>) => void) => {
      const { raw, doc } = composeOf(file);
      const r = clone(raw);
      const d = clone(doc);
      change(d);
      rawChange?.(r);
      return checkCompose(file, r, d);
    };

    it('a schema violation', () => {
      expect(
        broken((d) => {
          d['name'] = 'Renopath Project';
        }),
      ).toContainEqual(expect.stringContaining('schema: /name must be a lower-case project name'));
      expect(
        broken((d) => {
          d['services']['estates'].restart = 42;
        }),
      ).toContainEqual(expect.stringContaining('schema: /services/estates/restart must be string'));
      expect(
        broken((d) => {
          d['services']['estates'].healthcheck.interval = 'ten seconds';
        }),
      ).toContainEqual(expect.stringContaining('schema: /services/estates/healthcheck/interval must match format "duration"'));
    });

    it('a dependency on a service that does not exist, or one not waited for until healthy', () => {
      expect(
        broken((d) => {
          d['services']['estates'].depends_on = { mongodb: { condition: 'service_healthy' } };
        }),
      ).toContainEqual(expect.stringContaining('depends on mongodb, which is not a service'));
      expect(
        broken((d) => {
          d['services']['estates'].depends_on.nats.condition = 'service_started';
        }),
      ).toContainEqual(expect.stringContaining('estates: starts before nats is healthy'));
    });

    it('a service without a health check or restart policy', () => {
      expect(
        broken((d) => {
          delete d['services']['renovations'].healthcheck;
        }),
      ).toContainEqual(expect.stringContaining('renovations: no health check'));
      expect(
        broken((d) => {
          delete d['services']['mongo'].restart;
        }),
      ).toContainEqual(expect.stringContaining('mongo: no restart policy'));
    });

    it('an image that is not pinned', () => {
      expect(
        broken((d) => {
          d['services']['nats'].image = 'nats:latest';
        }),
      ).toContainEqual(expect.stringContaining('image nats:latest is pinned to latest'));
      expect(
        broken((d) => {
          d['services']['mongo'].image = 'mongo';
        }),
      ).toContainEqual(expect.stringContaining('image mongo is not pinned'));
    });

    it('a variable no code reads, and one whose value the service refuses', () => {
      expect(
        broken((d) => {
          d['services']['renovations'].environment.RENOPATH_PUBLIC_URL = 'http://x';
        }),
      ).toContainEqual(expect.stringContaining('sets RENOPATH_PUBLIC_URL, which services/renovations does not read'));
      expect(
        broken((d) => {
          d['services']['identity'].environment.RENOPATH_SECRETS_KEY = 'too-short';
        }),
      ).toContainEqual(
        expect.stringContaining('services/identity would refuse its configuration: invalid configuration: RENOPATH_SECRETS_KEY'),
      );
    });

    it('an adapter that cannot work across processes, or stores that differ between services', () => {
      expect(
        broken((d) => {
          d['services']['estates'].environment.RENOPATH_BUS = 'memory';
        }),
      ).toContainEqual(expect.stringContaining('RENOPATH_BUS=memory is not an adapter for separate processes'));
      expect(
        broken((d) => {
          d['services']['estates'].environment.RENOPATH_EVENT_STORE = 'esdb://other:2113?tls=false';
        }),
      ).toContainEqual(expect.stringContaining('RENOPATH_EVENT_STORE differs between services'));
    });

    it('a probe that looks for another process than the one the service starts', () => {
      expect(
        broken((d) => {
          d['services']['calculations'].healthcheck.test[6] = 'calculations';
        }),
      ).toContainEqual(
        expect.stringContaining('the probe looks for the bus connection "calculations" but the process connects as "calculations-all"'),
      );
      expect(
        broken((d) => {
          d['services']['calculations-worker'].environment.RENOPATH_CALCULATIONS_ROLE = 'all';
        }),
      ).toContainEqual(expect.stringContaining('connects as "calculations-all"'));
      expect(
        broken((d) => {
          d['services']['gateway'].healthcheck.test = ['CMD', 'true'];
        }),
      ).toContainEqual(expect.stringContaining("the gateway's health check should ask /ready"));
    });

    it('a secret written into the file', () => {
      expect(
        broken(
          () => {},
          (r) => {
            r['services']['gateway'].environment.RENOPATH_DOWNLOAD_SIGNING_SECRET = 'x'.repeat(40);
          },
        ),
      ).toContainEqual(expect.stringContaining('RENOPATH_DOWNLOAD_SIGNING_SECRET is written in the file'));
    });

    it('files on the fs blob store without one shared volume', () => {
      const problems = broken((d) => {
        for (const service of Object.values(d['services']) as any[])
          if (service.environment?.RENOPATH_BLOB_STORE) service.environment.RENOPATH_BLOB_STORE = 'fs';
      });
      expect(problems).toContainEqual(
        expect.stringContaining('RENOPATH_BLOB_STORE=fs but gateway, estates, reporting mount no shared volume'),
      );
      const postgres = composeOf('docker-compose.postgres.yml');
      const d = clone(postgres.doc);
      d['services']['reporting'].volumes = [];
      expect(checkCompose('docker-compose.postgres.yml', postgres.raw, d)).toContainEqual(
        expect.stringContaining('reporting mount no shared volume'),
      );
    });

    it('a command that starts no service', () => {
      expect(
        broken((d) => {
          d['services']['estates'].command = ['services/estate/src/main.ts'];
        }),
      ).toContainEqual(expect.stringContaining('does not start a service'));
    });
  });
});

describe('Kubernetes manifests (deploy/k8s)', () => {
  it('kustomization.yaml lists every manifest in the folder', () => {
    expect(K8S.listed).toEqual(K8S.files);
  });

  it('every object is valid for Kubernetes 1.27 and consistent with the code and with each other', () => {
    expect(checkK8s(k8sObjects(), secretValue)).toEqual([]);
  });

  it('keeps one gateway, one estates replica, one identity and one worker through a node drain, and lets a gateway leave the endpoints before it stops', () => {
    const objects = k8sObjects();
    const budgets = objects.filter((o) => o['kind'] === 'PodDisruptionBudget');
    expect(budgets.map((b) => [b['metadata'].name, b['spec'].minAvailable]).sort()).toEqual([
      ['calculations-worker', 1],
      ['estates', 1],
      ['gateway', 1],
      ['identity', 1],
    ]);
    const gateway = objects.find((o) => o['kind'] === 'Deployment' && o['metadata'].name === 'gateway')!;
    expect(gateway['spec'].template.spec.containers[0].lifecycle.preStop.exec.command).toEqual(['sleep', '5']);
    expect(gateway['spec'].template.spec.terminationGracePeriodSeconds).toBeGreaterThan(5);
  });

  it('runs every service, two gateways, two estates, two identities, workers, and StatefulSets for the stores', () => {
    const objects = k8sObjects();
    const deployments = new Map(objects.filter((o) => o['kind'] === 'Deployment').map((o) => [o['metadata'].name, o]));
    for (const service of SERVICES) expect(deployments.has(service)).toBe(true);
    expect(deployments.get('gateway')!['spec'].replicas).toBe(2);
    expect(deployments.get('estates')!['spec'].replicas).toBe(2);
    expect(deployments.get('identity')!['spec'].replicas).toBe(2);
    expect(deployments.get('calculations-worker')!['spec'].template.spec.containers[0].env).toContainEqual({
      name: 'RENOPATH_CALCULATIONS_ROLE',
      value: 'worker',
    });
    const statefulSets = objects.filter((o) => o['kind'] === 'StatefulSet');
    expect(statefulSets.map((s) => s['metadata'].name).sort()).toEqual(['kurrentdb', 'mongo', 'nats']);
    for (const set of statefulSets) expect(set['spec'].volumeClaimTemplates?.length).toBeGreaterThan(0);
    expect(objects.find((o) => o['kind'] === 'Job')?.['spec'].template.spec.containers[0].command.join(' ')).toContain('rs.initiate');
  });

  it('every Secret value is a placeholder that the services refuse, so a forgotten one cannot run', () => {
    const objects = k8sObjects();
    const secrets = objects.filter((o) => o['kind'] === 'Secret');
    expect(secrets.length).toBeGreaterThan(0);
    // With the committed placeholders instead of operator values, each service that reads one refuses to start.
    const problems = checkK8s(objects, () => undefined).filter((p) => p.includes('would refuse its configuration'));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Deployment gateway .*RENOPATH_(ADMIN_TOKEN|DOWNLOAD_SIGNING_SECRET)/),
        expect.stringMatching(/Deployment identity .*RENOPATH_SECRETS_KEY/),
      ]),
    );
  });

  it('builds with kustomize when kubectl is installed', (ctx) => {
    const probe = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
    if (probe.error || probe.status !== 0) {
      console.warn('[skip] kubectl kustomize: kubectl is not installed');
      ctx.skip();
    }
    const built = execFileSync('kubectl', ['kustomize', join(ROOT, 'deploy', 'k8s')], { encoding: 'utf8' });
    const kinds = [...built.matchAll(/^kind: (\w+)$/gm)].map((m) => m[1]);
    expect(kinds.length).toBe(k8sObjects().length);
    expect([...built.matchAll(/^ {2}namespace: (\S+)$/gm)].every((m) => m[1] === 'renopath')).toBe(true);
  });

  describe('each check reports a broken copy', () => {
    const broken = (change: (objects: Record<string, any>[]) => void) => {
      const objects = clone(k8sObjects());
      change(objects);
      return checkK8s(objects, secretValue);
    };
    const find = (objects: Record<string, any>[], kind: string, name: string) =>
      objects.find((o) => o['kind'] === kind && o['metadata'].name === name)!;
    const container = (objects: Record<string, any>[], name: string) =>
      find(objects, 'Deployment', name)['spec'].template.spec.containers[0];

    it('an object the schema rejects, and a kind it does not know', () => {
      expect(
        broken((o) => {
          container(o, 'gateway').ports[0].containerPort = 'eighty';
        }),
      ).toContainEqual(
        expect.stringContaining('Deployment gateway: data/spec/template/spec/containers/0/ports/0/containerPort must be integer'),
      );
      expect(
        broken((o) => {
          o.push({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } });
        }),
      ).toContainEqual('Widget w: unknown kind example.com/v1/Widget');
    });

    it('a Deployment without a probe or without resources', () => {
      expect(
        broken((o) => {
          delete container(o, 'estates').readinessProbe;
        }),
      ).toContainEqual('Deployment estates container estates: no readiness probe');
      expect(
        broken((o) => {
          delete container(o, 'reporting').livenessProbe;
        }),
      ).toContainEqual('Deployment reporting container reporting: no liveness probe');
      expect(
        broken((o) => {
          delete container(o, 'gateway').resources.limits.memory;
        }),
      ).toContainEqual('Deployment gateway container gateway: no memory limits');
    });

    it('a Renopath container without preStop, or replicas without a PodDisruptionBudget', () => {
      expect(
        broken((o) => {
          delete container(o, 'gateway').lifecycle;
        }),
      ).toContainEqual(expect.stringMatching(/^Deployment gateway container gateway: no preStop hook/));
      expect(
        broken((o) => {
          o.splice(o.indexOf(find(o, 'PodDisruptionBudget', 'estates')), 1);
        }),
      ).toContainEqual('Deployment estates: 2 replicas and no PodDisruptionBudget selecting them');
      expect(
        broken((o) => {
          find(o, 'Deployment', 'renovations')['spec'].replicas = 2;
        }),
      ).toContainEqual('Deployment renovations: 2 replicas and no PodDisruptionBudget selecting them');
    });

    it('a Service that selects no pods, or targets a port no container has', () => {
      expect(
        broken((o) => {
          find(o, 'Service', 'gateway')['spec'].selector = { 'app.kubernetes.io/name': 'gateways' };
        }),
      ).toContainEqual(expect.stringContaining('Service gateway: its selector {"app.kubernetes.io/name":"gateways"} matches no'));
      expect(
        broken((o) => {
          find(o, 'Service', 'nats')['spec'].ports[1].targetPort = 'monitoring';
        }),
      ).toContainEqual(expect.stringContaining('Service nats: port monitor targets monitoring'));
    });

    it('a StatefulSet whose Service is missing or not headless', () => {
      expect(
        broken((o) => {
          delete find(o, 'Service', 'kurrentdb')['spec'].clusterIP;
        }),
      ).toContainEqual(expect.stringContaining('StatefulSet kurrentdb: its Service kurrentdb is not headless'));
    });

    it('a reference to a ConfigMap key, Secret or claim that does not exist', () => {
      expect(
        broken((o) => {
          container(o, 'estates').env[0].valueFrom.configMapKeyRef.key = 'PUBLIC_URL';
        }),
      ).toContainEqual(
        expect.stringContaining('RENOPATH_PUBLIC_URL comes from ConfigMap renopath-site key PUBLIC_URL, which does not exist'),
      );
      expect(
        broken((o) => {
          container(o, 'renovations').envFrom[0].configMapRef.name = 'renopath';
        }),
      ).toContainEqual(expect.stringContaining('envFrom names ConfigMap renopath'));
      expect(
        broken((o) => {
          find(o, 'Deployment', 'identity')['spec'].template.spec.volumes[0] = {
            name: 'data',
            persistentVolumeClaim: { claimName: 'identity-data' },
          };
        }),
      ).toContainEqual(expect.stringContaining('claims identity-data, which is not in the manifests'));
    });

    it('a variable no code reads, a value the service refuses, an adapter for one process only', () => {
      expect(
        broken((o) => {
          find(o, 'ConfigMap', 'renopath-platform')['data'].RENOPATH_EVENTSTORE = 'sqlite';
        }),
      ).toContainEqual(expect.stringContaining('sets RENOPATH_EVENTSTORE, which services/estates does not read'));
      expect(
        broken((o) => {
          container(o, 'calculations').env[1].value = '100';
        }),
      ).toContainEqual(
        expect.stringContaining(
          'services/calculations would refuse its configuration: invalid configuration: RENOPATH_CALCULATION_WORKERS',
        ),
      );
      expect(
        broken((o) => {
          find(o, 'ConfigMap', 'renopath-platform')['data'].RENOPATH_BUS = 'memory';
        }),
      ).toContainEqual(expect.stringContaining('RENOPATH_BUS=memory is not an adapter for separate processes'));
    });

    it('a probe that looks for another process', () => {
      expect(
        broken((o) => {
          container(o, 'calculations-worker').readinessProbe.exec.command[5] = 'calculations-all';
        }),
      ).toContainEqual(
        expect.stringContaining(
          'the probe looks for the bus connection "calculations-all" but the process connects as "calculations-worker"',
        ),
      );
      expect(
        broken((o) => {
          container(o, 'estates').livenessProbe.exec.command[5] = 'renovations';
        }),
      ).toContainEqual(expect.stringContaining('the liveness probe looks for another process'));
      expect(
        broken((o) => {
          container(o, 'gateway').readinessProbe.httpGet.path = '/health';
        }),
      ).toContainEqual(expect.stringContaining("the gateway's readiness probe should ask /ready"));
    });

    it('a real value in a Secret, a secret in a ConfigMap, an unpinned image', () => {
      expect(
        broken((o) => {
          find(o, 'Secret', 'renopath-secrets')['stringData'].RENOPATH_ADMIN_TOKEN = 'a-real-looking-token-123';
        }),
      ).toContainEqual(expect.stringContaining('RENOPATH_ADMIN_TOKEN holds a value that is not a placeholder'));
      expect(
        broken((o) => {
          find(o, 'ConfigMap', 'renopath-site')['data'].RENOPATH_ADMIN_TOKEN = 'x';
        }),
      ).toContainEqual(expect.stringContaining('RENOPATH_ADMIN_TOKEN looks secret'));
      expect(
        broken((o) => {
          find(o, 'ConfigMap', 'renopath-platform')['data'].RENOPATH_EVENT_STORE = 'postgres://renopath:hunter2@postgres:5432/renopath';
        }),
      ).toContainEqual(expect.stringContaining('RENOPATH_EVENT_STORE carries a password in its URL'));
      expect(
        broken((o) => {
          find(o, 'StatefulSet', 'nats')['spec'].template.spec.containers[0].image = 'nats';
        }),
      ).toContainEqual(expect.stringContaining('image nats is not pinned'));
    });
  });
});

describe('image pinning rule', () => {
  it('accepts a version tag or a digest, refuses none or latest (a registry port is not a tag)', () => {
    expect(imageProblem('mongo:7.0')).toBeNull();
    expect(imageProblem('docker.kurrent.io/kurrent-latest/kurrentdb:25.1.0')).toBeNull();
    expect(imageProblem(`nats@sha256:${'a'.repeat(64)}`)).toBeNull();
    expect(imageProblem('registry.local:5000/renopath')).toMatch(/not pinned/);
    expect(imageProblem('renopath:latest')).toMatch(/latest/);
  });
});

describe('Dockerfile', () => {
  const dockerfile = readRepoFile('Dockerfile');

  it('copies every workspace manifest before npm ci (npm ci fails on a missing one)', () => {
    const workspaces = ['shared', 'services'].flatMap((group) =>
      readdirSync(join(ROOT, group))
        .filter((name) => existsSync(join(ROOT, group, name, 'package.json')))
        .map((name) => `${group}/${name}/package.json`),
    );
    const copied = [...dockerfile.matchAll(/^COPY (\S+\/package\.json) /gm)].map((m) => m[1]);
    expect(copied.sort()).toEqual(workspaces.sort());
    expect(dockerfile.indexOf('RUN npm ci')).toBeGreaterThan(dockerfile.lastIndexOf('/package.json '));
  });

  const stages = parseDockerfile(dockerfile);
  const stage = (name: string) => stages.find((s) => s.name === name)!;
  const args = (of: DockerStage, keyword: string) => of.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);

  it('is a Dockerfile the builder reads: known instructions, pinned bases, exec-form entry point', () => {
    expect(stages.map((s) => s.name)).toEqual(['deps', 'build', 'runtime']);
    for (const { base } of stages) if (!stages.some((s) => s.name === base)) expect(imageProblem(base)).toBeNull();
    const runtime = stage('runtime');
    expect(execForm(args(runtime, 'ENTRYPOINT')[0]!)).toEqual(['node', 'deploy/start.mjs']);
    expect(execForm(args(runtime, 'CMD')[0]!)).toEqual(['services/gateway/src/main.ts']);
    expect(() => parseDockerfile('FROM node:24-bookworm-slim\nRUNN npm ci\n')).toThrow(/line 2: not an instruction/);
  });

  it('installs the production dependencies on a current Node LTS slim base, with the Node headers for native builds', () => {
    for (const { base } of stages.filter((s) => !stages.some((other) => other.name === s.base))) {
      expect(base).toMatch(/^node:(22|24)(\.\d+)*-[a-z]+-slim$/);
    }
    const deps = stage('deps');
    expect(args(deps, 'ENV')).toContainEqual('npm_config_nodedir=/usr/local');
    expect(args(deps, 'RUN').filter((run) => /npm (ci|install)/.test(run))).toEqual([expect.stringMatching(/^npm ci --omit=dev /)]);
  });

  it('compiles the TypeScript in the build stage (npm run build, which the package defines)', () => {
    expect(stage('build').base).toBe('deps');
    expect(args(stage('build'), 'RUN')).toEqual(expect.arrayContaining(['npm ci --no-audit --no-fund', 'npm run build']));
    expect(JSON.parse(readRepoFile('package.json')).scripts.build).toBe('node scripts/build.mjs');
  });

  it('runs as a non-root user with a health check, and takes no source, compiler or dev dependency into the runtime stage', () => {
    const runtime = stage('runtime');
    expect(args(runtime, 'USER')).toEqual(['node']);
    expect(args(runtime, 'HEALTHCHECK')).toHaveLength(1);
    expect(args(runtime, 'HEALTHCHECK')[0]).toMatch(/^--interval=\S+ .*CMD \["node", "-e", .*\/health/);
    // node_modules only from the stage that installed with --omit=dev; from the build stage only its JavaScript.
    const copies = args(runtime, 'COPY');
    expect(copies.filter((c) => c.startsWith('--from='))).toEqual(['--from=deps /app ./', '--from=build /app/build ./']);
    expect(copies.filter((c) => !c.startsWith('--from='))).toEqual(['deploy/start.mjs deploy/start.mjs', 'deploy/probe deploy/probe']);
    expect(args(runtime, 'RUN').join('\n')).not.toMatch(/npm (ci|install)|apt-get|tsx|tsc/);
    expect(args(runtime, 'ENTRYPOINT').join(' ')).not.toContain('tsx');
  });

  it('every package the compiled services import is a production dependency of the workspace that imports it', () => {
    const missing: string[] = [];
    for (const [name, workspaces] of runtimeImports()) {
      for (const workspace of workspaces) if (!productionDependencies(workspace).has(name)) missing.push(`${workspace} imports ${name}`);
    }
    expect(missing).toEqual([]);
    expect(runtimeImports().has('prom-client')).toBe(true);
  });

  it('starts each service the manifests name by its source path (deploy/start.mjs maps it to the compiled file)', () => {
    const launcher = readRepoFile('deploy/start.mjs');
    const accepted = new RegExp(/if \(!(\/.*\/)\.test\(entry\)\)/.exec(launcher)![1]!.slice(1, -1));
    for (const service of SERVICES) expect(accepted.test(`services/${service}/src/main.ts`)).toBe(true);
    expect(accepted.test('../etc/passwd')).toBe(false);
    const build = JSON.parse(readRepoFile('tsconfig.build.json'));
    expect(build.include).toEqual(expect.arrayContaining(['services/*/src/**/*.ts', 'shared/*/src/**/*.ts']));
    expect(build.compilerOptions).toMatchObject({ noEmit: false, rewriteRelativeImportExtensions: true, outDir: 'build' });
  });

  it('.dockerignore keeps local dependencies, data and .env out of the image', () => {
    const ignore = readRepoFile('.dockerignore').split('\n');
    expect(ignore).toEqual(expect.arrayContaining(['**/node_modules', '.env', '/data', '.git', '/build']));
  });
});

describe('variables set but not read yet', () => {
  it('are each still used by the manifests, and reported while no code reads them', () => {
    const manifests = [...COMPOSE_FILES, ...K8S.files.map((f) => `deploy/k8s/${f}`)].map(readRepoFile).join('\n');
    const unset = Object.keys(PENDING_VARIABLES).filter((name) => !manifests.includes(name));
    expect(unset, 'in PENDING_VARIABLES but no manifest sets them: remove them there').toEqual([]);
    for (const [name, why] of Object.entries(PENDING_VARIABLES)) {
      const readers = SERVICES.filter((service) => variablesReadBy(service).has(name));
      if (readers.length === 0) console.warn(`[pending] ${name} is set by the manifests but no code reads it yet: ${why}`);
    }
  });
});
