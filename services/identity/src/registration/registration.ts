import { fold, handleCommand } from '@renopath/platform/service/decider.ts';
import { DomainError } from '@renopath/platform';
import { newId } from '@renopath/platform/service/handler-kit.ts';
import type { ServiceRequest } from '@renopath/contracts';
import { normalizeEmail } from '../email/email-claim.decider.ts';
import { userDecider, userStream } from '../user/user.decider.ts';
import type { IdentityKit } from '../kit.ts';

/** Registering the person behind an address: the request's half of the registration workflow. */
export function registration(kit: IdentityKit) {
  const { store, config, ctx, claimOf, registrations } = kit;

  /**
   * The user an address belongs to; a new address gets a user at once (its claim keeps one address
   * one person), whose address is proven when they accept what was sent to it. `existing` tells
   * whether the address had an account. The user is registered here and the registration process
   * manager claims the address (a crash in between is completed on restart); the request waits for it.
   */
  async function claimEmailAndRegister(req: ServiceRequest, owner: { email_address: string; first_name: string; last_name: string }) {
    const email = normalizeEmail(owner.email_address);
    // Derived from an idempotency key: a retry after a crash finds its own user, which is not an "existing" account.
    const mine = newId(req, 'user');
    const holder = await claimOf(email);
    const registered = async (id: string) =>
      fold(
        userDecider,
        (await store.readStream(userStream(id))).map((e) => e as never),
      ).exists;
    if (holder && holder !== mine && (await registered(holder)))
      return { user_id: holder, position: null as bigint | null, existing: true };
    // A claim whose user was never registered (cut off by a crash before registration came first) is completed here.
    const user_id = holder ?? mine;
    let position: bigint | null = null;
    if (!(await registered(user_id))) {
      position = (
        await handleCommand(
          store,
          userStream(user_id),
          userDecider,
          {
            type: 'RegisterUser',
            user_id,
            email_address: email,
            first_name: owner.first_name,
            last_name: owner.last_name,
          },
          ctx(req),
        )
      ).position;
    }
    if (position !== null) {
      try {
        await registrations.waitFor(position, config.settleTimeoutMs);
      } catch {
        throw new DomainError(503, ['the change was saved but is not readable yet; read it again shortly']);
      }
    }
    const winner = await claimOf(email);
    // Another request registered the address first: that user is the address's.
    if (winner && winner !== user_id) return { user_id: winner, position: null as bigint | null, existing: true };
    if (!winner) throw new DomainError(409, ['email_address was changed concurrently; try again']);
    return { user_id, position, existing: false };
  }

  return { claimEmailAndRegister };
}
export type Registration = ReturnType<typeof registration>;
