import { notFound } from '@renopath/platform';
import type { Handler, ReportingKit } from '../kit/reporting-kit.ts';
import { buildReferralModel, pageLanguage } from './referral-model.ts';
import { R, type AgencyDoc, type EstateCopyDoc, type TokenDoc, type TrajectoryDoc } from './referral.reactors.ts';

const REFERRAL_TOKEN_RE = /^[A-Za-z0-9_-]{32}$/;

/** The public referral page's query. */
export function referralHandlers(kit: Pick<ReportingKit, 'reads' | 'now'>): Record<'page', Handler> {
  const { reads, now } = kit;
  return {
    /**
     * Public: from this context's own copies only, so the page answers while other contexts are down.
     * The reply is the page's report model (without steps and reachable label while no trajectory has finished).
     */
    page: async (req) => {
      const token = String(req.params?.['token'] ?? '');
      if (!REFERRAL_TOKEN_RE.test(token)) throw notFound('page');
      const link = await reads.get<TokenDoc>(R.tokens, token);
      const copy = link && (await reads.get<EstateCopyDoc>(R.estates, link.estate_id));
      if (!copy || copy.estate.deleted) throw notFound('page');
      const estate = copy.estate;
      const trajectory = await reads.get<TrajectoryDoc>(R.trajectories, estate.estate_id);
      const agency = await reads.get<AgencyDoc>(R.agencies, estate.organization_id);
      const { language, languages } = pageLanguage(estate.fields.address.country, req.query?.['lang']);
      const model = buildReferralModel({
        estate,
        plan: trajectory?.plan ?? null,
        plan_finished_at: trajectory?.finished_at ?? null,
        agency: agency?.agency ?? null,
        language,
        now: now().toISOString(),
      });
      // Without a finished trajectory the page stays the estate's first one: what an advert shows and the estimate.
      return { ...model, languages, language };
    },
  };
}
