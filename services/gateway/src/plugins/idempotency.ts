import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { openSqliteReadStore, type ReadStore } from '@renopath/platform';
import { IdempotencyKeys } from '../http/idempotency.ts';

declare module 'fastify' {
  interface FastifyInstance {
    idempotency: IdempotencyKeys;
  }
}

export interface IdempotencyPluginOptions {
  /** Where Idempotency-Key records live (docs/http-contract.md "Idempotency and read-your-writes"); in memory when not given. */
  store?: ReadStore;
  /** No other gateway uses `store` (embedded mode): a claim left by an earlier process is abandoned at once. */
  exclusive: boolean;
  now?: () => number;
}

/** Idempotency-Key records of keyed POSTs (docs/http-contract.md "Idempotency and read-your-writes"); the declared routes claim, complete or release them. */
export const idempotencyPlugin = fp(
  async (app: FastifyInstance, options: IdempotencyPluginOptions) => {
    const store = options.store ?? openSqliteReadStore({ file: ':memory:' });
    if (!options.store) app.addHook('onClose', async () => store.close());
    const keys = new IdempotencyKeys(store, { exclusive: options.exclusive, ...(options.now ? { now: options.now } : {}) });
    app.addHook('onClose', async () => keys.close());
    app.decorate('idempotency', keys);
  },
  { name: 'renopath-idempotency' },
);
