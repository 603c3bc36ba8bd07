import type { Closeable, ReadStore } from '@renopath/platform';
import { consumeParsedEvents, type ReadStoreReactorOptions } from '@renopath/platform/service/reactor.ts';
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

const { EstateCreated, EstateUpdated, EstateDeleted, EstateMemberAdded, EstateMemberActivated, EstateMemberRemoved } = EstateEvents;
const FOLLOWED = { EstateCreated, EstateUpdated, EstateDeleted, EstateMemberAdded, EstateMemberActivated, EstateMemberRemoved };

export function startEstateDirectoryReactor(options: ReadStoreReactorOptions): Promise<Closeable> {
  const { readStore } = options;
  return consumeParsedEvents(options, ESTATES_CONSUMER, FOLLOWED, async (event, envelope) => {
    if (event.type === 'EstateMemberAdded' || event.type === 'EstateMemberActivated' || event.type === 'EstateMemberRemoved') {
      const { estate_id, user_id } = event.data;
      const key = `${estate_id}:${user_id}`;
      // An invitation grants nothing until it is accepted (the same rule as the estates context's).
      const pending = event.type === 'EstateMemberAdded' && event.data.status === 'PENDING';
      if (event.type === 'EstateMemberRemoved') await readStore.transaction((tx) => tx.delete(E.members, key));
      else if (!pending) await readStore.transaction((tx) => tx.put<EstateMemberDoc>(E.members, key, { estate_id, user_id }));
      return;
    }
    const { type } = event;
    await readStore.transaction(async (tx) => {
      const data = event.data as {
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
  });
}
