import type { ReferralSummary } from '@renopath/contracts';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const TYPE_NAMES: Record<string, string> = {
  HOUSE: 'House', VILLA: 'Villa', BUNGALOW: 'Bungalow', FARMHOUSE: 'Farmhouse', APARTMENT: 'Apartment',
  DUPLEX: 'Duplex', PENTHOUSE: 'Penthouse', STUDIO: 'Studio', MIXED_USE: 'Mixed-use building',
};
const REGION_NAMES: Record<string, string> = { FLANDERS: 'Flanders', BRUSSELS: 'Brussels', WALLONIA: 'Wallonia', NETHERLANDS: 'the Netherlands' };
const SCALE_NAMES: Record<string, string> = {
  EPC_FLANDERS: 'Flemish EPC', EPC_BRUSSELS: 'Brussels EPB', EPC_WALLONIA: 'Walloon PEB', ENERGY_LABEL_NL: 'Dutch energy label',
};

/**
 * The public referral page (`/r/{token}`): what an agency's advert shows (type and place) and the
 * model's estimate of the current EPC label with its confidence. Every value is escaped. A later
 * issue turns it into the full renovation-potential page.
 */
export function referralPage(s: ReferralSummary): string {
  const type = s.estate_type ? (TYPE_NAMES[s.estate_type] ?? s.estate_type) : 'Home';
  const place = [s.zip_code, s.place].filter((v): v is string => Boolean(v)).join(' ');
  const region = s.region ? REGION_NAMES[s.region] ?? s.region : null;
  const where = [place, region].filter(Boolean).join(', ');
  const estimate =
    s.epc_label && s.confidence_score !== null
      ? `<p class="label">Estimated current energy label: <strong>${escape(s.epc_label)}</strong>${
          s.energy_efficiency_type ? ` <span class="scale">(${escape(SCALE_NAMES[s.energy_efficiency_type] ?? s.energy_efficiency_type)})</span>` : ''
        }</p>
<p>Confidence of the estimate: ${escape(String(Math.round(s.confidence_score * 100)))}% (data quality ${escape(s.quality_label)}).
The estimate rests on the data the agency recorded; an official EPC certificate is the reference.</p>`
      : `<p class="label">Not enough is known about this home yet to estimate its energy label (data quality ${escape(s.quality_label)}).</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(type)}${where ? ` in ${escape(where)}` : ''} — renovation potential</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1d2a33}
.label{font-size:1.3rem}.scale{color:#567;font-size:1rem}footer{margin-top:2rem;color:#678;font-size:.85rem}</style></head>
<body><h1>${escape(type)}</h1>${where ? `<p class="place">${escape(where)}</p>` : ''}
${estimate}
<footer>Renovation potential by Renopath. Indicative only.</footer></body></html>`;
}
