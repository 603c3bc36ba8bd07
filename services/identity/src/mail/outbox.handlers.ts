import { DomainError } from '@renopath/platform';
import { parse } from '@renopath/platform/service/handler-kit.ts';
import { IdentitySubjects as S, OutboxQuery, type ServiceRequest } from '@renopath/contracts';
import type { IdentityKit } from '../kit.ts';

/** The admin's view of the file outbox (no SMTP configured). */
export function outboxHandlers(kit: IdentityKit) {
  const { mailer } = kit;

  const handlers: Record<string, (req: ServiceRequest) => Promise<unknown>> = {
    [S.adminOutbox]: async (req) => {
      const query = parse(OutboxQuery, req.query ?? {});
      const messages = await mailer.outbox({ ...(query.to ? { to: query.to } : {}), ...(query.limit ? { limit: query.limit } : {}) });
      if (messages === null) throw new DomainError(404, ['there is no outbox: messages leave by SMTP (RENOPATH_SMTP_URL is set)']);
      return messages;
    },
  };

  return handlers;
}
