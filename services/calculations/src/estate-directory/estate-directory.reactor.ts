import type { Logger } from 'pino';
import type { Bus, Closeable, ReadStore } from '@renopath/platform';
import { consumeEvents } from '@renopath/platform/service/reactor.ts';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import { EstateEvents } from '@renopath/contracts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const ESTATES_CONSUMER = 'calculations-estates';

/**
 * This context's copy of which estate carries which external_id in which organization (from the
 * estates context's events): a job names its estate at once (docs/job-metadata.md) without asking estates.
 */
export const E = {
  estates: 'calculations_estates',
  externalIds: 'calculations_estate_external_ids',
  /** `<estate_id>:<user_id>` for each active estate member: a CLIENT sees the jobs of the estates they are a member of. */
  members: 'calculations_estate_members',
} as const;

export interface EstateMemberDoc {
  estate_id: string;
  user_id: string;
}

export interface EstateDirectoryDoc {
  id: string;
  organization_id: string;
  external_id: string | null;
  deleted: boolean;
  revision: number;
}
export interface ExternalIdDoc {
  id: string;
  estate_id: string;
}

export const externalIdKey = (organization_id: string, external_id: string) => `${organization_id}:${external_id}`;

export async function estateOfExternalId(reads: ReadStore, organization_id: string, external_id: string): Promise<string | null> {
  return (await reads.get<ExternalIdDoc>(E.externalIds, externalIdKey(organization_id, external_id)))?.estate_id ?? null;
}

export function startEstateDirectoryReactor(options: {
  bus: Bus;
  readStore: ReadStore;
  log: Logger;
  settlement?: Settlement;
}): Promise<Closeable> {
  const { bus, readStore, log } = options;
  return consumeEvents(bus, ESTATES_CONSUMER, options.settlement, async (envelope) => {
    if (envelope.type === 'EstateMemberAdded' || envelope.type === 'EstateMemberActivated' || envelope.type === 'EstateMemberRemoved') {
      const parsed = EstateEvents[envelope.type].safeParse(envelope.data);
      if (!parsed.success) {
        log.error({ event_id: envelope.event_id, type: envelope.type }, 'estates event does not match its contract; skipped');
      } else {
        const { estate_id, user_id } = parsed.data;
        const key = `${estate_id}:${user_id}`;
        // An invitation grants nothing until it is accepted (the same rule as the estates context's).
        const pending = envelope.type === 'EstateMemberAdded' && (parsed.data as { status?: string }).status === 'PENDING';
        if (envelope.type === 'EstateMemberRemoved') await readStore.transaction((tx) => tx.delete(E.members, key));
        else if (!pending) await readStore.transaction((tx) => tx.put<EstateMemberDoc>(E.members, key, { estate_id, user_id }));
      }
      return;
    }
    const type = envelope.type as 'EstateCreated' | 'EstateUpdated' | 'EstateDeleted';
    const parsed = EstateEvents[type]?.safeParse(envelope.data);
    if (!parsed?.success) {
      if (parsed) log.error({ event_id: envelope.event_id, type }, 'estates event does not match its contract; skipped');
    } else {
      await readStore.transaction(async (tx) => {
        const data = parsed.data as {
          estate_id: string;
          organization_id?: string;
          fields?: { external_id: string | null };
          changes?: { external_id?: string | null };
        };
        const doc = await tx.get<EstateDirectoryDoc>(E.estates, data.estate_id);
        if (doc && doc.revision >= envelope.revision) return;
        let next: EstateDirectoryDoc | null = doc;
        if (type === 'EstateCreated') {
          next = {
            id: data.estate_id,
            organization_id: data.organization_id!,
            external_id: data.fields?.external_id ?? null,
            deleted: false,
            revision: envelope.revision,
          };
        } else if (doc && type === 'EstateUpdated') {
          next = {
            ...doc,
            external_id: data.changes?.external_id === undefined ? doc.external_id : data.changes.external_id,
            revision: envelope.revision,
          };
        } else if (doc && type === 'EstateDeleted') {
          next = { ...doc, deleted: true, revision: envelope.revision };
        }
        if (!next) return;
        if (doc?.external_id && (doc.external_id !== next.external_id || next.deleted)) {
          const key = externalIdKey(doc.organization_id, doc.external_id);
          if ((await tx.get<ExternalIdDoc>(E.externalIds, key))?.estate_id === doc.id) await tx.delete(E.externalIds, key);
        }
        if (next.external_id && !next.deleted) {
          const key = externalIdKey(next.organization_id, next.external_id);
          await tx.put<ExternalIdDoc>(E.externalIds, key, { id: key, estate_id: next.id });
        }
        await tx.put(E.estates, next.id, next);
      });
    }
  });
}
