import type { Logger } from 'pino';
import type { Bus, Closeable, ReadStore } from '@renopath/platform';
import { consumeEvents } from '@renopath/platform/service/reactor.ts';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import { IdentityEvents, type MemberType } from '@renopath/contracts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const IDENTITY_CONSUMER = 'renovations-identity';

export const D = {
  /** `<organization_id>:<user_id>` -> the member's role (active memberships only: invitations grant nothing). */
  roles: 'renovations_roles',
  /** user id -> the user's `external_id` (the search's `managing_user.external_id` and `external_user_id` filter). */
  users: 'renovations_users',
} as const;

export interface RoleDoc {
  organization_id: string;
  user_id: string;
  member_type: MemberType;
}

export interface UserDoc {
  user_id: string;
  external_id: string | null;
}

export const roleId = (organization_id: string, user_id: string) => `${organization_id}:${user_id}`;

/**
 * What this context needs of identity, kept from its events: the role of each organization member
 * (access follows the token's organization and the role there, docs/http-contract.md) and users' external ids.
 * Writes are idempotent (a put or delete by key), so a redelivery changes nothing.
 */
export function startDirectoryMirrorReactor(options: {
  bus: Bus;
  readStore: ReadStore;
  log: Logger;
  settlement?: Settlement;
}): Promise<Closeable> {
  const { bus, readStore, log } = options;
  return consumeEvents(bus, IDENTITY_CONSUMER, options.settlement, async (envelope) => {
    const apply = async () => {
      switch (envelope.type) {
        case 'OrganizationMemberAdded': {
          const { organization_id, user_id, member_type } = IdentityEvents.OrganizationMemberAdded.parse(envelope.data);
          await readStore.transaction((tx) =>
            tx.put<RoleDoc>(D.roles, roleId(organization_id, user_id), { organization_id, user_id, member_type }),
          );
          return;
        }
        case 'OrganizationMemberRemoved': {
          const { organization_id, user_id } = IdentityEvents.OrganizationMemberRemoved.parse(envelope.data);
          await readStore.transaction((tx) => tx.delete(D.roles, roleId(organization_id, user_id)));
          return;
        }
        case 'UserUpdated': {
          const { user_id, changes } = IdentityEvents.UserUpdated.parse(envelope.data);
          if (changes.external_id === undefined) return;
          await readStore.transaction((tx) => tx.put<UserDoc>(D.users, user_id, { user_id, external_id: changes.external_id ?? null }));
        }
      }
    };
    try {
      await apply();
    } catch (err) {
      if (!(err instanceof Error && err.name === 'ZodError')) throw err;
      log.error({ err, event_id: envelope.event_id, type: envelope.type }, 'identity event does not match its contract; skipped');
    }
  });
}
