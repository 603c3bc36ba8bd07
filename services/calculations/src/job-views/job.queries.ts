import { actorOf, pageOf, parse } from '@renopath/platform/service/handler-kit.ts';
import { CalculationJobListQuery } from '@renopath/contracts';
import { E, type EstateMemberDoc } from '../estate-directory/estate-directory.reactor.ts';
import type { CalculationsKit, Handler } from '../kit/calculations-kit.ts';
import { J, type JobDoc } from './job-views.projection.ts';

const jobIdOf = (req: { params?: Record<string, string> }) => String(req.params?.['calculation_job_id'] ?? '').toLowerCase();

/** Reading jobs: one job, the caller's list of jobs, a job's webhook attempts. */
export function jobQueries(kit: CalculationsKit): Record<'get' | 'list' | 'webhookDeliveries', Handler> {
  const { reads, now } = kit;
  return {
    async get(req) {
      return (await kit.visibleJob(actorOf(req), jobIdOf(req))).job;
    },

    async list(req) {
      const actor = actorOf(req);
      const q = parse(CalculationJobListQuery, req.query ?? {});
      const filter = {
        organization_id: actor.organization_id,
        'job.deactivated_at': null,
        'job.expires_at': { $gt: now().toISOString() },
        ...(q.external_id ? { 'job.external_id': q.external_id } : {}),
      };
      const sort = [{ field: 'created_position', order: 'DESC' as const }];
      let items: JobDoc[];
      let total: number;
      if (await kit.isWriter(actor)) {
        ({ items, total } = await reads.query<JobDoc>(J.jobs, { filter, sort, page: q.page, pageSize: q.page_size }));
      } else {
        // A client's jobs: their own and those of the estates they are a member of (few: paged here).
        const estates = (await reads.query<EstateMemberDoc>(E.members, { filter: { user_id: actor.user_id } })).items.map(
          (m) => m.estate_id,
        );
        const own = (await reads.query<JobDoc>(J.jobs, { filter: { ...filter, user_id: actor.user_id }, sort })).items;
        const theirs = estates.length
          ? (await reads.query<JobDoc>(J.jobs, { filter: { ...filter, 'job.estate_id': { $in: estates } }, sort })).items
          : [];
        const all = [...new Map([...own, ...theirs].map((d) => [d.id, d])).values()].sort(
          (a, b) => b.created_position - a.created_position,
        );
        total = all.length;
        items = all.slice((q.page - 1) * q.page_size, q.page * q.page_size);
      }
      return pageOf(
        q,
        total,
        items.map((d) => d.job),
      );
    },

    async webhookDeliveries(req) {
      const doc = await kit.visibleJob(actorOf(req), jobIdOf(req));
      return kit.webhookDeliveries ? await kit.webhookDeliveries(doc.id) : [];
    },
  };
}
