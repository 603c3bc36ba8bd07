export { renderReferralPage, renderReferralNotFound, type ReferralPageOptions } from './render.ts';
