import { afterAll, beforeAll, describe, it } from 'vitest';
import { startStack, type Stack } from './stack.ts';
import { cascadeScenarios, type Client } from './renovations.fixtures.ts';

/** Cascades from the estates context to renovations, embedded (the same scenarios run over NATS in distributed.e2e.spec.ts). */
let stack: Stack;
let client: Client;

beforeAll(async () => {
  stack = await startStack();
  client = stack.as(await stack.token()) as unknown as Client;
});
afterAll(async () => stack?.close());

describe('cascades from estates to renovations (embedded)', () => {
  for (const [name, scenario] of Object.entries(cascadeScenarios(() => client))) it(name, scenario);
});
