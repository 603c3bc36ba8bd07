import type { TestProject } from 'vitest/node';
import { CONTEXTS, startDistributedStack, type DistributedMode, type DistributedStackOptions } from './distributed-stack.ts';

/**
 * vitest `globalSetup` of the distributed API-suite projects: one stack per project, started once
 * before its files and stopped after them, instead of seven processes started again for every file.
 * `startStack()` (stack.ts) attaches to it and gives each file an organization of its own (a fresh
 * tenant, its owner and API client), so the files sharing the stack stay apart as two customers would.
 * A file that needs settings of its own (`startStack(env)`) still starts its own stack.
 */

/** What a test worker is given of the shared stack (`inject('renopathSharedStack')`). */
export interface SharedStackInfo {
  mode: DistributedMode;
  gateways: string[];
  sharedDir: string;
  contextDirs: Record<string, string>;
  /** The identity bootstrap client: only used to create each file's tenant. */
  bootstrap: { client_id: string; client_secret: string };
  /** The settings it runs with: a file asking for these (or for none) is given the shared stack. */
  env: Record<string, string>;
}

/**
 * The shared stack's settings: calculations-jobs' (webhooks to its own receiver on 127.0.0.1, retried
 * quickly), which no other file of the API suite contradicts; calculations-sources tests that private
 * addresses are refused, with a stack of its own.
 */
export const SHARED_STACK_ENV: Record<string, string> = {
  RENOPATH_ALLOW_PRIVATE_NETWORK: 'true',
  RENOPATH_WEBHOOK_RETRY_SCHEDULE: '0,100ms,100ms',
  // A service slow to answer on a busy machine is not a dead one: the files wait for the answer.
  RENOPATH_BUS_TIMEOUT_MS: '60000',
};

declare module 'vitest' {
  export interface ProvidedContext {
    renopathSharedStack: SharedStackInfo | null;
  }
}

/** The public URL the embedded stack's links carry (its default): the distributed stack is given the same. */
export const PUBLIC_URL = 'http://localhost:8080';

/** RENOPATH_E2E_REPLICAS=estates:2,gateway:2,identity:2 (nats-postgres; default 2 of each). */
export function replicaCounts(): DistributedStackOptions['replicas'] {
  const given = process.env['RENOPATH_E2E_REPLICAS'] ?? 'estates:2,gateway:2,identity:2';
  const counts: Record<string, number> = {};
  for (const entry of given.split(',').filter(Boolean)) {
    const [service, count] = entry.split(':');
    if (!service || !/^[0-9]+$/.test(count ?? '')) throw new Error(`RENOPATH_E2E_REPLICAS: "${entry}" is not service:count`);
    counts[service] = Number(count);
  }
  return counts;
}

export default async function setup(project: TestProject) {
  const mode = project.config.env?.['RENOPATH_E2E_STACK'];
  if (mode !== 'nats-sqlite' && mode !== 'nats-postgres') {
    project.provide('renopathSharedStack', null);
    return;
  }
  const stack = await startDistributedStack({
    mode,
    replicas: mode === 'nats-postgres' ? replicaCounts() : {},
    publicUrl: PUBLIC_URL,
    env: SHARED_STACK_ENV,
  });
  project.provide('renopathSharedStack', {
    mode,
    gateways: stack.gateways,
    sharedDir: stack.sharedDir,
    contextDirs: Object.fromEntries(CONTEXTS.map((context) => [context, stack.contextDir(context)])),
    bootstrap: stack.bootstrap,
    env: SHARED_STACK_ENV,
  });
  return async () => {
    await stack.close();
  };
}
