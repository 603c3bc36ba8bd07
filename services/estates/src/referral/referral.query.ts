import type { ReadStore } from '@renopath/platform';
import { notFound } from '../access/access.ts';
import { C, type EstateListDoc, type ReferralDoc } from '../estate-views/estate-views.projection.ts';
import { renderReferral } from '../estate-views/estate-views.render.ts';
import type { Handler } from '../kit/estates-kit.ts';

const REFERRAL_TOKEN_RE = /^[A-Za-z0-9_-]{32}$/;

/** The public referral page: anyone holding the estate's referral token, no token of ours needed. */
export function referralQuery(reads: ReadStore): Handler {
  return async (req) => {
    const token = String(req.params['token'] ?? '');
    if (!REFERRAL_TOKEN_RE.test(token)) throw notFound('page');
    const referral = await reads.get<ReferralDoc>(C.referrals, token);
    const doc = referral && (await reads.get<EstateListDoc>(C.list, referral.estate_id));
    if (!doc) throw notFound('page');
    return renderReferral(doc);
  };
}
