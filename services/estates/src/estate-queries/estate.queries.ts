import { notFound } from '@renopath/platform';
import type { z } from 'zod';
import { freezeImmutable, isImmutable } from '@renopath/platform/internal/reply.ts';
import { actorOf, readShared } from '@renopath/platform/service/handler-kit.ts';
import type { EstateListQuery, GetEstateQuery, ServiceRequest } from '@renopath/contracts';
import { WRITER_ROLES } from '@renopath/contracts';
import { activeIn, asSeenBy, type Access } from '../access/access.ts';
import { C, type EstateDetailDoc, type EstateListDoc, type MembershipDoc } from '../estate-views/estate-views.projection.ts';
import { renderEstate, renderListForm, renderListItem, type EstateReply } from '../estate-views/estate-views.render.ts';
import type { EstatesKit, Handler } from '../kit/estates-kit.ts';

/**
 * The current detail document (the store's shared copy: read only) and what the caller may do with
 * it, for a caller with at least `need`.
 */
async function accessibleDoc(kit: EstatesKit, req: ServiceRequest, need: Access) {
  const estate_id = kit.estateIdOf(req);
  const doc = await readShared<EstateDetailDoc>(kit.reads, C.detail, estate_id);
  if (!doc?.view) throw notFound('estate');
  const { view } = doc;
  const access = await kit.access.requireAccess(req, view.organization_id, activeIn(view), need);
  return { doc, view, access };
}

/** The current detailed form, for a reader with at least `need`, as that reader may see it. Read only. */
export async function readable(kit: EstatesKit, req: ServiceRequest, need: Access = 'READ') {
  const { doc, view, access } = await accessibleDoc(kit, req, need);
  return { view: asSeenBy(view, access, actorOf(req)), assessment: doc.assessment };
}

/** Queries of the estate views: the lists, the detailed form, the members. */
export function estateQueries(kit: EstatesKit, asOf: Handler): Record<'list' | 'estateList' | 'get' | 'members', Handler> {
  const { reads, config } = kit;
  /**
   * A writer sees the whole estate, so their reply depends on the document alone: rendered once per
   * shared document (a change brings a new one) and frozen, so the gateway may keep its bytes too.
   */
  const writerReplies = new WeakMap<object, Readonly<EstateReply>>();

  /**
   * Estates the caller sees, in the token's organization only: all of them for its owners and
   * employees, the ones they accepted an invitation to for its clients.
   */
  async function visibleList(req: ServiceRequest, filter: z.infer<typeof EstateListQuery>): Promise<EstateListDoc[]> {
    const actor = actorOf(req);
    const role = await kit.access.roleOf(req);
    if (!role) return [];
    const extra = {
      ...(filter.external_id !== undefined ? { external_id: filter.external_id } : {}),
      ...(filter.estate_provider_type !== undefined ? { estate_provider_type: filter.estate_provider_type } : {}),
    };
    let all: EstateListDoc[];
    if (WRITER_ROLES.has(role)) {
      all = (await reads.query<EstateListDoc>(C.list, { filter: { organization_id: actor.organization_id, ...extra } })).items;
    } else {
      const { items: memberships } = await reads.query<MembershipDoc>(C.memberships, {
        filter: { user_id: actor.user_id, organization_id: actor.organization_id },
      });
      const memberOf = memberships.filter((m) => m.status !== 'PENDING').map((m) => m.estate_id);
      all = memberOf.length ? (await reads.query<EstateListDoc>(C.list, { filter: { _id: { $in: memberOf }, ...extra } })).items : [];
    }
    // Newest first; the id breaks ties so the order is stable.
    return all.sort((a, b) => (a.created_at === b.created_at ? a.id.localeCompare(b.id) : b.created_at.localeCompare(a.created_at)));
  }

  return {
    list: async (req) => (await visibleList(req, {})).map((doc) => renderListForm(doc, config.publicUrl)),
    estateList: async (req) => {
      // The message contract parsed the query (serveMessages).
      const filter = req.query as z.infer<typeof EstateListQuery>;
      return { estates: (await visibleList(req, filter)).map((doc) => renderListItem(doc, config.publicUrl)) };
    },
    get: async (req) => {
      const query = req.query as z.infer<typeof GetEstateQuery>;
      if (query.as_of !== undefined) return asOf(req);
      const { doc, view, access } = await accessibleDoc(kit, req, 'READ');
      if (access === 'WRITE' && isImmutable(doc)) {
        let reply = writerReplies.get(doc);
        if (reply === undefined) {
          reply = freezeImmutable(renderEstate(view, doc.assessment, config.publicUrl));
          writerReplies.set(doc, reply);
        }
        return reply;
      }
      return renderEstate(asSeenBy(view, access, actorOf(req)), doc.assessment, config.publicUrl);
    },
    members: async (req) => (await readable(kit, req)).view.members,
  };
}
