import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NO_STREAM, type RecordedEvent } from '../ports/event-store.ts';
import type { ReadStoreTx } from '../ports/read-store.ts';
import { runProjection } from '../projection-runner.ts';
import { openSqliteEventStore } from '../sqlite/event-store/sqlite-event-store.ts';
import { openSqliteReadStore } from '../sqlite/sqlite-read-store.ts';
import { newEvent } from '../testing/contract-helpers.ts';
import { decodeEvent, EventContractError, withEventContracts } from './event-contracts.ts';

const Contracts = {
  PriceSet: z.object({ item_id: z.string(), amount: z.number().nonnegative(), currency: z.string().default('EUR') }),
};

const recorded = (type: string, data: Record<string, unknown>): RecordedEvent => ({
  ...newEvent(type, data),
  stream: 'item-1',
  revision: 0n,
  position: 7n,
});

describe('event contracts', () => {
  it("hands a handler the data as its type's contract reads it, and other types unchanged", () => {
    const event = recorded('PriceSet', { item_id: 'a', amount: 10, stray: true });
    expect(decodeEvent(Contracts, event).data).toEqual({ item_id: 'a', amount: 10, currency: 'EUR' });
    const foreign = recorded('SomethingElse', { anything: 1 });
    expect(decodeEvent(Contracts, foreign)).toBe(foreign);
  });

  it('refuses an event that breaks its contract, naming it', () => {
    const error = (() => {
      try {
        decodeEvent(Contracts, recorded('PriceSet', { item_id: 'a', amount: -1 }));
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(EventContractError);
    expect((error as Error).message).toMatch(/PriceSet at item-1@7 breaks its contract: .*amount/);
  });

  describe('in a projection', () => {
    const cleanup: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const close of cleanup.splice(0).reverse()) await close();
    });

    it('applies what its contract reads and stops on an event that breaks it, reporting the event', async () => {
      const eventStore = openSqliteEventStore({ file: ':memory:' });
      const readStore = openSqliteReadStore({ file: ':memory:' });
      cleanup.push(
        () => eventStore.close(),
        () => readStore.close(),
      );
      const errors: unknown[] = [];
      const projection = runProjection({
        name: 'prices',
        eventStore,
        readStore,
        collections: ['prices'],
        retry: { initialDelayMs: 5, maxDelayMs: 20 },
        onError: (error) => errors.push(error),
        handle: withEventContracts(Contracts, async (event: RecordedEvent, tx: ReadStoreTx) => {
          await tx.put('prices', String(event.data['item_id']), event.data);
        }),
      });
      cleanup.push(() => projection.close());
      const { position } = await eventStore.append('item-a', [newEvent('PriceSet', { item_id: 'a', amount: 3 })], NO_STREAM);
      await projection.waitFor(position, 5000);
      expect(await readStore.get('prices', 'a')).toEqual({ item_id: 'a', amount: 3, currency: 'EUR' });

      await eventStore.append('item-b', [newEvent('PriceSet', { item_id: 'b', amount: 'free' })], NO_STREAM);
      await expect.poll(() => errors.length, { timeout: 5000 }).toBeGreaterThan(0);
      expect(errors[0]).toBeInstanceOf(EventContractError);
      expect(await readStore.get('prices', 'b')).toBeNull();
      expect(projection.position).toBe(position);
    });
  });
});
