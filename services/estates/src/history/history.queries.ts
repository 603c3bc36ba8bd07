import { DomainError, notFound } from '@renopath/platform';
import { actorOf, parse } from '@renopath/platform/service/handler-kit.ts';
import { GetEstateQuery } from '@renopath/contracts';
import { asSeenBy } from '../access/access.ts';
import { activeMembers } from '../estate/estate.decider.ts';
import { replayEstate } from '../estate-views/estate-view.ts';
import { renderEstate } from '../estate-views/estate-views.render.ts';
import type { EstatesKit, Handler } from '../kit/estates-kit.ts';
import { assessEstate } from '../quality/quality.ts';
import { historyEntry } from './estate-history.ts';

/** Queries of the estate's past, answered from its stream (the views keep only the present). */
export function historyQueries(kit: EstatesKit): Record<'history' | 'asOf', Handler> {
  return {
    history: async (req) => {
      const estate_id = kit.estateIdOf(req);
      const { state, events } = await kit.loadState(estate_id);
      if (state.status === 'NONE') throw notFound('estate');
      const access = await kit.access.requireAccess(req, state.organization_id, activeMembers(state), 'READ');
      const reader = { actor: actorOf(req), client: access === 'READ' };
      return events.map((e) => historyEntry(e, reader));
    },

    /** `GET /estates/{id}?as_of=`: replays the stream to that moment; a deleted estate's past stays readable (docs/http-contract.md "Estates and their parts"). */
    asOf: async (req) => {
      const { as_of } = parse(GetEstateQuery, req.query ?? {});
      const estate_id = kit.estateIdOf(req);
      const { state, events } = await kit.loadState(estate_id);
      if (state.status === 'NONE') throw notFound('estate');
      const access = await kit.access.requireAccess(req, state.organization_id, activeMembers(state), 'READ');
      const asOf = Date.parse(as_of!);
      const past = replayEstate(events.filter((e) => Date.parse(e.occurred_at) <= asOf));
      if (!past) throw new DomainError(404, [`estate did not exist at ${as_of}`]);
      const view = asSeenBy(past, access, actorOf(req));
      return renderEstate(view, assessEstate(view), kit.config.publicUrl, (file_id) => file_id in state.files);
    },
  };
}
