import type { Logger } from 'pino';
import type { EventStore, ReadStore } from '@renopath/platform';
import { fold } from '@renopath/platform/service/decider.ts';
import type { Projection } from '@renopath/platform/projection-runner.ts';
import type { ProcessManager } from '@renopath/platform/service/process-manager.ts';
import { commandContext, readYourWrites } from '@renopath/platform/service/handler-kit.ts';
import type { Mailer, MailMessage } from '@renopath/platform/ports/mailer.ts';
import type { ServiceRequest, User } from '@renopath/contracts';
import { C, userReply } from './directory/directory.projection.ts';
import { emailClaimDecider, emailStream } from './email/email-claim.decider.ts';
import { organizationDecider, organizationStream } from './organization/organization.decider.ts';
import type { SigningKeys } from './tokens/signing-keys.ts';
import type { SecretBox } from './webhook-secrets/secret-box.ts';

export interface IdentityConfig {
  issuer: string;
  audience: string;
  tokenTtlSeconds: number;
  settleTimeoutMs: number;
  /** Base of the addresses named in messages. */
  publicUrl: string;
}

/** What the identity context runs on: its stores, key rings, mailer and sealing, its settings and log. */
export interface IdentityParts {
  eventStore: EventStore;
  readStore: ReadStore;
  keys: SigningKeys;
  /** The ring that signs documents (renovation passports); a memory-only ring when not given (tests). */
  documentKeys?: SigningKeys;
  /** Invitations and address confirmations go out through it. */
  mailer: Mailer;
  /** Seals webhook secrets: events carry only the ciphertext. */
  secrets: SecretBox;
  config: IdentityConfig;
  log: Logger;
}

/** What the identity context's handlers share: its stores, its read model and process manager, its helpers. */
export function identityKit(
  deps: IdentityParts & { now: () => Date; projection: Projection; registrations: ProcessManager; onboardings: ProcessManager },
) {
  const { eventStore: store, readStore: reads, mailer, log, now, projection, config } = deps;
  return {
    ...deps,
    store,
    reads,
    ctx: (req: ServiceRequest) => commandContext(req, now()),
    settle: readYourWrites(projection, config.settleTimeoutMs),
    async getUser(id: string) {
      const user = await reads.get<User>(C.users, id);
      return user && userReply(user);
    },
    orgState: async (organization_id: string) =>
      fold(
        organizationDecider,
        (await store.readStream(organizationStream(organization_id))).map((e) => e as never),
      ),
    claimOf: async (email: string) =>
      fold(
        emailClaimDecider,
        (await store.readStream(emailStream(email))).map((e) => e as never),
      ).user_id,
    /** A message is a courtesy on top of a stored change: a mail server that is down must not undo the change. */
    async deliver(message: MailMessage) {
      try {
        await mailer.send(message);
      } catch (err) {
        log.error({ err, subject: message.subject }, 'could not send a message; the change stands, the sender may invite again');
      }
    },
  };
}
export type IdentityKit = ReturnType<typeof identityKit>;
