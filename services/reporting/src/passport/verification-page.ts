import { formatDate, formatMoney, t } from '../i18n/index.ts';
import { esc } from '../referral-page/html.ts';
import type { ReportLanguage } from '../report-model.ts';
import type { PassportVerification } from './passport.handlers.ts';

const p = (lang: ReportLanguage, key: string, params: Record<string, string | number> = {}) => t(lang, `passport.${key}`, params);

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;color:#21262d}' +
  'h1{font-size:1.4rem}code{word-break:break-all;font-size:.95rem}.ok{color:#116329}.bad{color:#a40e26}' +
  '.verdict{font-size:1.2rem;font-weight:bold;margin:1rem 0}dt{color:#57606a;margin-top:.6rem}dd{margin:0}';

/**
 * The public page of a signed passport (no login): what a bank or a grant office checks. It shows a
 * summary, the content hash, and whether the content still matches it and the signature verifies
 * with the published key; every value is escaped.
 */
export function renderVerificationPage(v: PassportVerification): string {
  const lang = v.language;
  const address = [
    [v.address.street, v.address.house_number, v.address.house_number_extra].filter(Boolean).join(' '),
    [v.address.zip_code, v.address.place].filter(Boolean).join(' '),
  ]
    .filter((l) => l.length > 0)
    .join(', ');
  const verdict = (ok: boolean, yes: string, no: string) =>
    `<p class="verdict ${ok ? 'ok' : 'bad'}">${ok ? '✔' : '✘'} ${esc(p(lang, ok ? yes : no))}</p>`;
  return `<!doctype html>
<html lang="${esc(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(p(lang, 'page.title'))}</title><style>${STYLE}</style></head>
<body>
<h1>${esc(p(lang, 'page.title'))}</h1>
${verdict(v.signature_verifies, 'page.signature_ok', 'page.signature_bad')}
${verdict(v.hash_matches, 'page.hash_ok', 'page.hash_bad')}
<dl>
<dt>${esc(p(lang, 'title'))}</dt><dd>${esc(p(lang, 'version', { version: v.version }))} · ${esc(address || '–')}</dd>
<dt>${esc(p(lang, 'roadmap.title'))}</dt><dd>${esc(
    p(lang, 'page.summary', {
      from: v.epc_label,
      to: v.epc_label_after,
      steps: v.steps,
      cost: formatMoney(lang, v.total_estimated_cost_incl_vat),
    }),
  )}</dd>
<dt>${esc(p(lang, 'target.title'))}</dt><dd>${esc(p(lang, 'target.text', { label: v.target.label, year: v.target.year }))}</dd>
<dt>${esc(p(lang, 'visit.title'))}</dt><dd>${esc(v.site_visit_date ?? '–')}</dd>
<dt>${esc(p(lang, 'signature.title'))}</dt><dd>${esc(
    p(lang, 'signature.by', {
      name: v.signed_by.advisor_name,
      number: v.signed_by.accreditation_number,
      date: formatDate(lang, v.signed_at),
    }),
  )}</dd>
<dt>${esc(p(lang, 'signature.hash'))}</dt><dd><code>${esc(v.content_sha256)}</code></dd>
<dt>JWS</dt><dd>${esc(p(lang, 'page.key', { kid: v.key_id ?? '–' }))}</dd>
</dl>
</body></html>`;
}

/** A visitor with a wrong or unsigned passport's address gets a page saying so. */
export function renderVerificationNotFound(lang: ReportLanguage): string {
  return `<!doctype html><html lang="${esc(lang)}"><head><meta charset="utf-8"><title>${esc(p(lang, 'page.title'))}</title><style>${STYLE}</style></head><body><h1>${esc(
    p(lang, 'page.title'),
  )}</h1><p>${esc(p(lang, 'page.not_found'))}</p></body></html>`;
}
