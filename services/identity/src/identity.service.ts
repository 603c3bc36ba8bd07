import type { Bus, Closeable } from '@renopath/platform';
import { runProjection, type Projection } from '@renopath/platform/projection-runner.ts';
import type { ProcessManager } from '@renopath/platform/service/process-manager.ts';
import { serveMessages } from '@renopath/platform/service/handler-kit.ts';
import type { ServiceRequest } from '@renopath/contracts';
import { access } from './access/access.ts';
import { apiClients } from './api-client/api-client.handlers.ts';
import { invitations } from './invitation/invitation.ts';
import { identityKit, type IdentityParts } from './kit.ts';
import { outboxHandlers } from './mail/outbox.handlers.ts';
import { onboarding } from './onboarding/onboarding.ts';
import { startOnboardingProcess } from './onboarding/onboarding.process.ts';
import { DIRECTORY } from './projections.ts';
import { organizationHandlers } from './organization/organization.handlers.ts';
import { registration } from './registration/registration.ts';
import { startRegistrationProcess } from './registration/registration.process.ts';
import { tokenHandlers } from './tokens/token.handlers.ts';
import { userHandlers } from './user/user.handlers.ts';

export type { IdentityConfig } from './kit.ts';

export interface IdentityDeps extends IdentityParts {
  bus: Bus;
  now?: () => Date;
  /** Subscribe to the bus only on `serve()`: a process that bootstraps first answers nobody before its client exists. */
  deferServe?: boolean;
}

export interface IdentityService {
  projection: Projection;
  /** Claims the addresses of registered users (see registration/). */
  registrations: ProcessManager;
  /** Carries out organizations asked for with their owner and API client (see onboarding/). */
  onboardings: ProcessManager;
  /** Subscribes the bus handlers (done at start unless `deferServe`); once only. */
  serve(): Promise<void>;
  /** First start of an empty store (or one whose bootstrap was cut off): a demo organization, owner and API client (docs/http-contract.md "Authentication, roles and rate limits"). */
  bootstrapIfEmpty(credentials: {
    client_id?: string;
    client_secret?: string;
  }): Promise<null | { client_id: string; client_secret: string; webhook_secret: string; organization_id: string; user_id: string }>;
  /** The API client's webhook signing secret in clear, for the context that signs webhooks in this process; null when unknown. */
  webhookSecret(client_id: string): Promise<string | null>;
  close(): Promise<void>;
}

/** The identity context: its read model and process manager started, its subjects wired to their handlers. */
export async function startIdentity(deps: IdentityDeps): Promise<IdentityService> {
  const { bus, eventStore, readStore, log } = deps;
  const now = deps.now ?? (() => new Date());

  const projection = runProjection({
    ...DIRECTORY,
    eventStore,
    readStore,
    onError: (err, event) => log.error({ err, event_id: event?.event_id }, 'directory projection failed; retrying'),
  });
  const registrations = startRegistrationProcess({ eventStore, readStore, log, now });
  const onboardings = startOnboardingProcess({ eventStore, readStore, log, now });

  const kit = identityKit({ ...deps, now, projection, registrations, onboardings });
  const registering = registration(kit);
  const inviting = invitations(kit, registering);
  const allowed = access(kit);
  const clients = apiClients(kit);
  const onboard = onboarding(kit, inviting);

  const handlers: Record<string, (req: ServiceRequest) => Promise<unknown>> = {
    ...tokenHandlers(kit),
    ...userHandlers(kit, allowed),
    ...organizationHandlers(kit, allowed, inviting),
    ...onboard.handlers,
    ...clients.handlers,
    ...outboxHandlers(kit),
  };

  const subscriptions: Closeable[] = [];
  let serving = false;
  async function serve() {
    if (serving) return;
    serving = true;
    // Signing a webhook is internal to the calculations context and this one: its body is this context's.
    subscriptions.push(...(await serveMessages(bus, handlers)));
    log.info({ subjects: Object.keys(handlers).length }, 'identity service ready');
  }
  if (!deps.deferServe) await serve();

  return {
    projection,
    registrations,
    onboardings,
    serve,
    // With the client's webhook secret as stored (a resumed bootstrap keeps the first one): the first start prints
    // it, so a new user can verify a webhook without an operator's token.
    async bootstrapIfEmpty(credentials) {
      const created = await onboard.bootstrapIfEmpty(credentials);
      if (!created) return null;
      const webhook_secret = await clients.webhookSecret(created.client_id);
      if (!webhook_secret) throw new Error(`the bootstrap client ${created.client_id} has no webhook secret`);
      return { ...created, webhook_secret };
    },
    webhookSecret: clients.webhookSecret,
    async close() {
      for (const s of subscriptions) await s.close();
      await onboardings.close();
      await registrations.close();
      await projection.close();
    },
  };
}
