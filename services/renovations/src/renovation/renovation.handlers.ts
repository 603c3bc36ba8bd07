import { DomainError, notFound } from '@renopath/platform';
import { actorOf, newId, parse } from '@renopath/platform/service/handler-kit.ts';
import { CreateRenovationBody, CreateRenovationFromTrajectoryBody } from '@renopath/contracts';
import type { Handler, RenovationsKit } from '../kit/renovations-kit.ts';
import { renderRecord } from '../renovation-views/renovation-views.render.ts';

/** The renovation's own commands: create (by hand, or from a calculation job's plan) and delete. */
export function renovationHandlers(kit: RenovationsKit): Record<'create' | 'createFromTrajectory' | 'remove', Handler> {
  const { estateOf, mayUse, run, year, renovationFor, current } = kit;
  return {
    create: async (req) => {
      const actor = actorOf(req);
      const body = parse(CreateRenovationBody, req.body);
      const estate_id = body.estate_id.toLowerCase();
      const estate = await estateOf(estate_id);
      if (!estate || estate.deleted || !(await mayUse(actor, estate))) throw notFound('estate');
      const renovation_id = newId(req, 'renovation');
      await run(req, renovation_id, {
        type: 'CreateRenovation',
        renovation_id,
        renovation_name: body.renovation_name ?? null,
        estate,
        year: year(),
      });
      return { id: renovation_id, estate_id };
    },

    /**
     * Internal (a calculation job's effects): the renovation made of a plan's steps, with the job's
     * actor. The same access as `POST /renovations` (the `renovations` scope the gateway checks over
     * HTTP, then the estate). The job asks once this context's copy of the estate has its writes.
     */
    createFromTrajectory: async (req) => {
      const actor = actorOf(req);
      if (!actor.scopes.includes('renovations')) throw new DomainError(403, []);
      const body = parse(CreateRenovationFromTrajectoryBody, req.body);
      const estate_id = body.estate_id.toLowerCase();
      const renovation_id = body.renovation_id.toLowerCase();
      const estate = await estateOf(estate_id);
      if (!estate || estate.deleted || !(await mayUse(actor, estate))) throw notFound('estate');
      await run(req, renovation_id, {
        type: 'CreateRenovationFromTrajectory',
        renovation_id,
        renovation_name: body.name,
        calculation_job_id: body.calculation_job_id.toLowerCase(),
        items: body.items,
        income_category: body.income_category ?? null,
        estate,
        year: body.year ?? year(),
      });
      return { id: renovation_id, estate_id };
    },

    remove: async (req) => {
      const { doc } = await renovationFor(req);
      await run(req, doc.id, { type: 'DeleteRenovation', renovation_id: doc.id, reason: 'DELETED' });
      return renderRecord(await current(doc.id));
    },
  };
}
