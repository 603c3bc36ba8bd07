import { describe, expect, it } from 'vitest';
import { DomainError } from '@renopath/platform';
import { hashSecret, ScryptGate, verifySecret } from './secrets.ts';

describe('client secrets', () => {
  it('verify against their hash, and an unknown client (no hash) never matches', async () => {
    const hash = await hashSecret('right');
    expect(await verifySecret('right', hash)).toBe(true);
    expect(await verifySecret('wrong', hash)).toBe(false);
    expect(await verifySecret('right', null)).toBe(false);
    expect(await verifySecret('', null)).toBe(false);
  });

  it('run through a gate: never more at once than allowed, a bounded queue, then 503', async () => {
    const gate = new ScryptGate(1, 2);
    let active = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const work = () =>
      gate.run(async () => {
        most = Math.max(most, ++active);
        await new Promise<void>((resolve) => releases.push(resolve));
        active--;
      });
    const running = [work(), work(), work()];
    const refused = await work().catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).status).toBe(503);
    while (releases.length || gate.queued) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(running);
    expect(most).toBe(1);
  });
});
