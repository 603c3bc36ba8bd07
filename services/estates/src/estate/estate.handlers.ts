import { randomBytes } from 'node:crypto';
import { handleCommand } from '@renopath/platform/service/decider.ts';
import { actorOf, newId, parse } from '@renopath/platform/service/handler-kit.ts';
import { CreateDescribedEstateBody, UpdateEstateBody, type ServiceRequest } from '@renopath/contracts';
import { activeMembers, estateDecider, estateStream } from './estate.decider.ts';
import { C, type EstateDetailDoc } from '../estate-views/estate-views.projection.ts';
import { renderViewListForm } from '../estate-views/estate-views.render.ts';
import { externalIdDecider, externalIdStream } from '../external-id/external-id.decider.ts';
import { lowerIds, type EstatesKit, type Handler } from '../kit/estates-kit.ts';

/** The estate aggregate's own commands: create, update, delete. */
export function estateHandlers(kit: EstatesKit): Record<'create' | 'update' | 'remove', Handler> {
  const { store, reads, access, config } = kit;

  const externalId = (...args: ExternalIdArgs) => externalIdCommand(kit, ...args);

  return {
    create: async (req) => {
      const actor = actorOf(req);
      // The HTTP body (checked against CreateEstateBody by the message contract), or an internal caller's with roofs.
      const body = lowerIds(parse(CreateDescribedEstateBody, req.body));
      await access.requireWriter(req);
      await access.checkManagingUser(actor.organization_id, body.managing_user_id);
      const estate_id = newId(req, 'estate');
      const { estate_provider_type = 'API', roofs = [], ...fields } = body;
      const external = fields.external_id ?? null;
      if (external) await externalId(req, 'ClaimExternalId', actor.organization_id, external, estate_id);
      let result;
      try {
        result = await handleCommand(
          store,
          estateStream(estate_id),
          estateDecider,
          {
            type: 'CreateEstate',
            estate_id,
            organization_id: actor.organization_id,
            estate_provider_type,
            referral_token: randomBytes(24).toString('base64url'),
            fields,
            ...(roofs.length > 0 ? { roofs: roofs.map((roof, i) => ({ roof_id: newId(req, `roof-${i}`), fields: roof })) } : {}),
          },
          kit.ctx(req),
        );
      } catch (err) {
        // The estate was refused (e.g. a postal code of the wrong country): no event says so, so the
        // refusal frees its external_id here.
        if (external) await externalId(req, 'ReleaseExternalId', actor.organization_id, external, estate_id);
        throw err;
      }
      await kit.settle(result.position);
      return kit.detailReply(estate_id);
    },

    update: async (req) => {
      const estate_id = kit.estateIdOf(req);
      const changes = lowerIds(parse(UpdateEstateBody, req.body));
      // Read once: access, the managing user and the external_id move are checked on this state.
      const { state } = await kit.loadState(estate_id);
      const before = state.fields.external_id;
      const after = changes.external_id === undefined ? before : changes.external_id;
      const moving = state.status === 'ACTIVE' && after !== before;
      if (state.status === 'ACTIVE' && (changes.managing_user_id || moving)) {
        await access.requireAccess(req, state.organization_id, activeMembers(state), 'WRITE');
        await access.checkManagingUser(state.organization_id, changes.managing_user_id);
      }
      if (moving && after) await externalId(req, 'ClaimExternalId', state.organization_id, after, estate_id);
      let position: bigint | null;
      try {
        ({ position } = await kit.record(req, estate_id, { type: 'UpdateEstate', estate_id, changes }, { state }));
      } catch (err) {
        if (moving && after) await externalId(req, 'ReleaseExternalId', state.organization_id, after, estate_id);
        throw err;
      }
      // The old external_id is freed by the external-id process manager; settle waits for it.
      await kit.settle(position);
      return kit.detailReply(estate_id);
    },

    remove: async (req) => {
      const estate_id = kit.estateIdOf(req);
      const before = await reads.get<EstateDetailDoc>(C.detail, estate_id);
      // The cascade (file bytes, the external_id) is the process managers' work; settle waits for it.
      await kit.write(req, estate_id, { type: 'DeleteEstate', estate_id });
      return before?.view ? renderViewListForm(before.view, before.assessment, config.publicUrl) : {};
    },
  };
}

type ExternalIdArgs = [
  req: ServiceRequest,
  type: 'ClaimExternalId' | 'ReleaseExternalId',
  organization_id: string,
  external_id: string,
  estate_id: string,
];

/**
 * Reserves (or frees) an organization's external_id for one estate; see external-id.decider.ts.
 * Claims happen here (their 409 is the answer); releases after a stored change are the external-id
 * process manager's, from the events.
 */
function externalIdCommand(kit: EstatesKit, ...[req, type, organization_id, external_id, estate_id]: ExternalIdArgs) {
  return handleCommand(
    kit.store,
    externalIdStream(organization_id, external_id),
    externalIdDecider,
    { type, organization_id, external_id, estate_id },
    kit.ctx(req),
  );
}
