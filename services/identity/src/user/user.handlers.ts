import { fold, handleCommand } from '@renopath/platform/service/decider.ts';
import { DomainError } from '@renopath/platform';
import { actorOf, parse } from '@renopath/platform/service/handler-kit.ts';
import {
  ConfirmEmailChangeBody,
  IdentitySubjects as S,
  UpdateUserBody,
  type EmailChangeConfirmation,
  type ServiceRequest,
} from '@renopath/contracts';
import { emailClaimDecider, emailStream, normalizeEmail } from '../email/email-claim.decider.ts';
import { claimEmail } from '../email/email-claims.ts';
import { addressInUseMessage, emailChangeMessage } from '../mail/messages.ts';
import { newEmailedToken, readEmailedToken } from '../mail/emailed-token.ts';
import { confirmableAddress, INVALID_EMAIL_CHANGE, userDecider, userStream } from './user.decider.ts';
import type { Access } from '../access/access.ts';
import type { IdentityKit } from '../kit.ts';

/** How long an address-change code works. */
const EMAIL_CHANGE_TTL_MS = 86_400_000;

/** The user query set and its commands: me, profile edits, address changes confirmed by code. */
export function userHandlers(kit: IdentityKit, { authorizeUserAccess }: Access) {
  const { store, config, now, ctx, settle, getUser, claimOf, deliver } = kit;

  const handlers: Record<string, (req: ServiceRequest) => Promise<unknown>> = {
    [S.me]: async (req) => {
      const user = await getUser(actorOf(req).user_id);
      if (!user) throw new DomainError(404, ['user not found']);
      return [user];
    },

    [S.updateUser]: async (req) => {
      const actor = actorOf(req);
      const user_id = req.params['user_id'] ?? '';
      const { email_address, ...changes } = parse(UpdateUserBody, req.body);
      const target = await authorizeUserAccess(actor, user_id, true);
      const email = email_address === undefined ? null : normalizeEmail(email_address);
      const changingAddress = email !== null && email !== target.email_address;
      // The address is where invitations go: only its owner asks for another one, and only that address confirms it.
      if (changingAddress && user_id !== actor.user_id) throw new DomainError(403, ['only the user may change their own email address']);
      let position: bigint | null = null;
      if (Object.keys(changes).length > 0) {
        position = (await handleCommand(store, userStream(user_id), userDecider, { type: 'UpdateUser', user_id, changes }, ctx(req)))
          .position;
      }
      if (changingAddress) {
        const { token, token_hash } = newEmailedToken(user_id);
        const expires_at = new Date(now().getTime() + EMAIL_CHANGE_TTL_MS).toISOString();
        const requested = await handleCommand(
          store,
          userStream(user_id),
          userDecider,
          { type: 'RequestEmailChange', user_id, email_address: email, token_hash, expires_at },
          ctx(req),
        );
        position = requested.position ?? position;
        // The same answer whether or not the address has an account: its owner gets a neutral note, no code.
        const taken = (await claimOf(email)) !== null;
        if (requested.state.pending_email?.token_hash === token_hash) {
          await deliver(
            taken ? addressInUseMessage({ to: email }) : emailChangeMessage({ to: email, token, expires_at, publicUrl: config.publicUrl }),
          );
        }
      }
      await settle(position);
      return await getUser(user_id);
    },

    [S.confirmEmailChange]: (req) => confirmEmailChange(kit, req),
  };

  return handlers;
}

/** The code sent to the new address confirms it: the new address is claimed, then the old one released. */
async function confirmEmailChange(kit: IdentityKit, req: ServiceRequest): Promise<EmailChangeConfirmation> {
  const { store, now, ctx, settle } = kit;
  const { token } = parse(ConfirmEmailChangeBody, req.body);
  const read = readEmailedToken(token, 1);
  if (!read) throw INVALID_EMAIL_CHANGE();
  const [user_id] = read.ids as [string];
  const state = fold(
    userDecider,
    (await store.readStream(userStream(user_id))).map((e) => e as never),
  );
  const at = now().toISOString();
  const email = confirmableAddress(state, read.token_hash, at);
  try {
    await claimEmail(store, email, user_id, ctx(req));
  } catch (err) {
    // Taken since the request: the code cannot complete, and says no more than any other bad code.
    if (err instanceof DomainError && err.status === 409) throw INVALID_EMAIL_CHANGE();
    throw err;
  }
  let confirmed;
  try {
    confirmed = await handleCommand(
      store,
      userStream(user_id),
      userDecider,
      { type: 'ConfirmEmailChange', user_id, token_hash: read.token_hash, now: at },
      ctx(req),
    );
  } catch (err) {
    await handleCommand(
      store,
      emailStream(email),
      emailClaimDecider,
      { type: 'ReleaseEmailAddress', email_address: email, user_id },
      ctx(req),
    );
    throw err;
  }
  await handleCommand(
    store,
    emailStream(state.email_address),
    emailClaimDecider,
    { type: 'ReleaseEmailAddress', email_address: state.email_address, user_id },
    ctx(req),
  );
  await settle(confirmed.position);
  return { user_id, email_address: email };
}
