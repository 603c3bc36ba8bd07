import { notFound } from '@renopath/platform';
import { idParam, parse } from '@renopath/platform/service/handler-kit.ts';
import { AddEstateMemberBody, IdentitySubjects, type OrganizationMember } from '@renopath/contracts';
import { activeMembers, estateStream } from '../estate/estate.decider.ts';
import { C, type EstateDetailDoc } from '../estate-views/estate-views.projection.ts';
import type { EstatesKit, Handler } from '../kit/estates-kit.ts';

/** Estate members: buyers invited by the organization, who read the estate once they accept. */
export function memberHandlers(kit: EstatesKit): Record<'add' | 'remove', Handler> {
  return {
    add: async (req) => {
      const estate_id = kit.estateIdOf(req);
      const body = parse(AddEstateMemberBody, req.body);
      const { state } = await kit.loadState(estate_id);
      if (state.status !== 'ACTIVE') throw notFound('estate');
      await kit.access.requireAccess(req, state.organization_id, activeMembers(state), 'WRITE');
      // Identity invites the person as a CLIENT of the organization (an active member keeps their role and
      // is active here at once); an invitee is PENDING, under the names given here, until they accept.
      // A write that starts in another context: the request waits for identity's answer (its 4xx are the
      // caller's), and a retry with the same key is the same invitation in both contexts.
      const member = await kit.bus.request<OrganizationMember>(IdentitySubjects.attachClientMember, {
        actor: req.actor,
        correlation_id: req.correlation_id,
        ...(req.idempotency_key ? { idempotency_key: req.idempotency_key } : {}),
        params: {},
        query: {},
        body: { organization_id: state.organization_id, ...body, estate_id },
      });
      const { user_id, email_address, first_name, last_name, status } = member;
      const written = await kit.write(
        req,
        estate_id,
        { type: 'AddEstateMember', estate_id, user_id, email_address, first_name, last_name, status },
        { state },
      );
      if (written.position === null) {
        // The invitation process manager may have recorded this member first (from identity's event): the command
        // then stores nothing and settles nothing, so the view is awaited up to what the stream already holds.
        await kit.settle((await kit.store.readStream(estateStream(estate_id))).at(-1)?.position ?? null);
      }
      const added = (await kit.currentView(estate_id)).view.members.find((m) => m.user_id === user_id);
      if (!added) throw new Error('member not projected');
      return added;
    },
    remove: async (req) => {
      const estate_id = kit.estateIdOf(req);
      const user_id = idParam(req, 'member_id', 'member');
      const before = await kit.reads.get<EstateDetailDoc>(C.detail, estate_id);
      await kit.write(req, estate_id, { type: 'RemoveEstateMember', estate_id, user_id, reason: 'REMOVED_FROM_ESTATE' });
      return before?.view?.members.find((m) => m.user_id === user_id) ?? {};
    },
  };
}
