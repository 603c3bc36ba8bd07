import {
  assumptionSentences,
  incomeSentences,
  milestoneOutcome,
  milestoneText,
  phaseName,
  qualitySentences,
  stepMeets,
} from '../i18n/conditions-text.ts';
import { conditionLines } from '../i18n/grant-conditions.ts';
import { tn } from '../i18n/index.ts';
import { moneyText } from '../i18n/money-text.ts';
import type { ReportLanguage, ReportModel, ReportMoney, ReportStep } from '../report-model.ts';
import { renderChart } from './chart.ts';
import { componentName, longDate, money, number } from './format.ts';
import { term, termOf } from '../i18n/terms.ts';
import { esc, labelStyle } from './html.ts';
import { pageText, type PageKey } from './strings.ts';

export interface ReferralPageOptions {
  /** The languages the switcher offers (the page's own included). */
  languages: readonly ReportLanguage[];
  /** The link to this page in a language, e.g. `?lang=fr-BE`. */
  hrefFor(language: ReportLanguage): string;
  /** The agency allows the exact address; otherwise the page shows no more than an advert would. */
  showHouseNumber: boolean;
  /** The language the visitor asked for (`?lang=`) when the page is not in it: the page says it fell back. */
  unavailableLanguage?: string | null;
}

/**
 * The public referral page (`/r/{token}`) as one HTML document: inline CSS, the chart as inline SVG,
 * no script and no external asset, so it works under the gateway's `default-src 'none'` policy. The
 * estate's photo is left out for the same reason (an image, even inline, is a blocked resource).
 */
export function renderReferralPage(model: ReportModel, options: ReferralPageOptions): string {
  const lang = model.language;
  const t = (key: PageKey, values?: Record<string, string | number>) => esc(pageText(lang, key, values));
  const home = (model.estate.estate_type && termOf(lang, `estate_type.${model.estate.estate_type}`)) ?? term(lang, 'home');
  const place = [model.estate.zip_code, model.estate.place].filter((v): v is string => Boolean(v)).join(' ');
  const street = model.estate.street
    ? [model.estate.street, options.showHouseNumber ? model.estate.house_number : null].filter(Boolean).join(' ')
    : null;
  const address = [street, place].filter(Boolean).join(', ');
  const title = place ? pageText(lang, 'title', { home, place }) : pageText(lang, 'title_no_place', { home });
  const facts = [
    termOf(lang, `scale.${model.scale}`),
    model.estate.year_built !== null ? pageText(lang, 'built_in', { year: model.estate.year_built }) : null,
    model.estate.habitable_space_m2 !== null
      ? pageText(lang, 'habitable_space', { area: number(lang, model.estate.habitable_space_m2) })
      : null,
  ].filter((v): v is string => Boolean(v));

  return `${pageStart(lang, title)}
${languageSwitcher(lang, options)}
<main>
${options.unavailableLanguage ? `<p class="fallback" role="status">${t('language_unavailable', { language: options.unavailableLanguage.slice(0, 16) })}</p>` : ''}
<header class="intro">
<p class="kicker">${t('heading')}</p>
<h1>${esc(home)}</h1>
${address ? `<p class="address">${esc(address)}</p>` : ''}
${facts.length > 0 ? `<p class="facts">${facts.map(esc).join(' · ')}</p>` : ''}
</header>
<section class="labels" aria-label="${esc(term(lang, 'current_label'))} / ${esc(term(lang, 'reachable_label'))}">
${labelCard(model, 'current', esc(term(lang, 'current_label')))}
<span class="arrow" aria-hidden="true">→</span>
${labelCard(model, 'reachable', esc(term(lang, 'reachable_label')))}
</section>
${summary(model)}
${model.money ? moneySection(model.language, model.money) : ''}
<section class="chart-block">
<h2>${t('chart_heading')}</h2>
${
  model.steps.length > 0
    ? `${renderChart(model)}
<p class="legend"><span><span class="key dot"></span>${t('chart_legend_label')}</span> <span><span class="key bar"></span>${t('chart_legend_cost')}</span></p>`
    : `<p>${t(model.reachable.epc_label === null ? 'no_trajectory' : 'no_steps')}</p>`
}
</section>
${model.steps.length > 0 ? stepsTable(model) : ''}
${grants(model)}
${conditions(model)}
${callToAction(model)}
<footer>
${model.confidence ? `<p>${t('confidence', { pct: Math.round(model.confidence.score * 100), quality: model.confidence.quality_label })}</p>` : ''}
<p>${t('disclaimer')}</p>
<p>${t('generated', { date: longDate(lang, model.generated_at) })} ${t('footer')}</p>
</footer>
</main>
</body>
</html>
`;
}

/** Every referral page up to its `<body>`: its language, a phone's width, kept out of search engines, its title and the style. */
function pageStart(lang: string, title: string): string {
  return `<!doctype html>
<html lang="${esc(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>`;
}

/** The page for an unknown or withdrawn token: the same look, a plain explanation, nothing about any estate. */
export function renderReferralNotFound(language: ReportLanguage): string {
  const t = (key: PageKey) => esc(pageText(language, key));
  return `${pageStart(language, pageText(language, 'not_found_title'))}
<main>
<header class="intro"><p class="kicker">${t('heading')}</p><h1>${t('not_found_title')}</h1></header>
<p>${t('not_found_text')}</p>
<p>${t('not_found_hint')}</p>
</main>
</body>
</html>
`;
}

function languageSwitcher(current: ReportLanguage, options: ReferralPageOptions): string {
  if (options.languages.length < 2) return '';
  const links = options.languages.map((language) => {
    const name = esc(pageText(language, 'language_name'));
    return language === current
      ? `<li><a href="${esc(options.hrefFor(language))}" hreflang="${esc(language)}" lang="${esc(language)}" aria-current="page">${name}</a></li>`
      : `<li><a href="${esc(options.hrefFor(language))}" hreflang="${esc(language)}" lang="${esc(language)}">${name}</a></li>`;
  });
  return `<nav class="languages" aria-label="${esc(pageText(current, 'language_switch'))}"><ul>${links.join('')}</ul></nav>`;
}

function labelCard(model: ReportModel, which: 'current' | 'reachable', caption: string): string {
  const { epc_label: label, epc_score: score } = model[which];
  const shown = label ?? term(model.language, 'label_unknown');
  // A score line under both badges (empty without a score), so the two badges sit at one height.
  return `<div class="label-card ${which}">
<p class="caption">${caption}</p>
<p class="big-label" style="${labelStyle(model, label)}">${esc(shown)}</p>
<p class="score">${score !== null ? esc(pageText(model.language, 'score', { score: number(model.language, score) })) : '&#160;'}</p>
</div>`;
}

function summary(model: ReportModel): string {
  const lang = model.language;
  const figure = (key: PageKey, euros: number, css: string) =>
    `<div class="figure ${css}"><dt>${esc(pageText(lang, key))}</dt><dd>${esc(money(lang, euros))}</dd></div>`;
  return `<section class="summary">
<h2>${esc(pageText(lang, 'summary_heading'))} <span class="muted">(${esc(tn(lang, 'page.steps_count', model.steps.length))})</span></h2>
<dl>${figure('total_incl_vat', model.totals.total_estimated_cost_incl_vat, 'gross')}${figure('total_grants', model.totals.subsidy_amount, 'grant')}${figure('total_net', model.totals.net_cost, 'net')}</dl>
${model.conditions.income ? `<p class="income">${esc(incomeSentences(lang, model).join(' '))}</p>` : ''}
</section>`;
}

/** The household's money: bill before and after, monthly repayment against monthly saving, paybacks, what the meter gave. */
function moneySection(lang: ReportLanguage, money: ReportMoney): string {
  const text = moneyText(lang, 'page', money);
  const rows = text.rows.map(([name, value]) => `<div class="figure"><dt>${esc(name)}</dt><dd>${esc(value)}</dd></div>`).join('');
  return `<section class="money">
<h2>${esc(text.title)}</h2>
<dl>${rows}</dl>
<p class="muted">${esc(text.note)}</p>
</section>`;
}

function stepsTable(model: ReportModel): string {
  const lang = model.language;
  const head = (key: PageKey) => esc(pageText(lang, key));
  const cell = (key: PageKey, content: string, css = '') => `<td data-label="${head(key)}"${css ? ` class="${css}"` : ''}>${content}</td>`;
  const row = (step: ReportStep) => {
    const supporting = step.items.filter((item) => item.derived).map((item) => componentName(lang, item.renovation_component_type));
    const measure =
      `<strong>${esc(componentName(lang, step.renovation_component_type))}</strong>` +
      (supporting.length > 0 ? `<span class="includes">${esc(pageText(lang, 'includes', { items: supporting.join(', ') }))}</span>` : '');
    const after = step.epc_label_after
      ? `<span class="badge" style="${labelStyle(model, step.epc_label_after)}">${esc(step.epc_label_after)}</span>`
      : esc(term(lang, 'label_unknown'));
    const meets = stepMeets(lang, model, step.order);
    return (
      `<tr>${cell('col_step', esc(step.order), 'num-step')}${cell('col_measure', measure + (meets ? `<span class="meets">${esc(meets)}</span>` : ''), 'measure')}` +
      `${cell('col_phase', esc(phaseName(lang, step.phase)), 'phase')}${cell('col_label_after', after)}` +
      `${cell('col_cost', esc(money(lang, step.estimated_cost)), 'amount')}${cell('col_vat', esc(money(lang, step.estimated_vat_cost)), 'amount')}` +
      `${cell('col_grants', esc(money(lang, -step.subsidy_amount || 0)), 'amount grant')}${cell('col_net', esc(money(lang, step.net_cost)), 'amount net')}</tr>`
    );
  };
  const totals = model.totals;
  return `<section class="steps">
<h2>${head('steps_heading')}</h2>
<table>
<thead><tr><th scope="col">${head('col_step')}</th><th scope="col">${head('col_measure')}</th><th scope="col">${head('col_phase')}</th><th scope="col">${head('col_label_after')}</th><th scope="col" class="amount">${head('col_cost')}</th><th scope="col" class="amount">${head('col_vat')}</th><th scope="col" class="amount">${head('col_grants')}</th><th scope="col" class="amount">${head('col_net')}</th></tr></thead>
<tbody>${model.steps.map(row).join('')}</tbody>
<tfoot><tr><th scope="row" colspan="4">${head('totals')}</th>${cell('col_cost', esc(money(lang, totals.estimated_cost)), 'amount')}${cell('col_vat', esc(money(lang, totals.estimated_vat_cost)), 'amount')}${cell('col_grants', esc(money(lang, -totals.subsidy_amount || 0)), 'amount grant')}${cell('col_net', esc(money(lang, totals.net_cost)), 'amount net')}</tr></tfoot>
</table>
</section>`;
}

function grants(model: ReportModel): string {
  const lang = model.language;
  const items = model.grants.flatMap((category) => category.items).filter((item) => item.subsidy_amount > 0);
  if (items.length === 0) return '';
  // One block per scheme: a scheme's conditions are usually the same for every measure, so they are listed once.
  const schemes = new Map<string | null, typeof items>();
  for (const item of items) schemes.set(item.scheme, [...(schemes.get(item.scheme) ?? []), item]);
  const blocks = [...schemes].map(([scheme, granted]) => {
    const entries = granted.map(
      (item) =>
        `<li><span class="grant-name">${esc(componentName(lang, item.renovation_component_type))}</span> <span class="grant-amount">${esc(money(lang, item.subsidy_amount))}</span></li>`,
    );
    const conditions = conditionLines(lang, [...new Set(granted.flatMap((item) => item.conditions))]);
    const listed =
      conditions.length > 0
        ? `<p class="conditions-caption">${esc(pageText(lang, 'grant_conditions'))}</p><ul class="conditions">${conditions.map((c) => `<li>${esc(c)}</li>`).join('')}</ul>`
        : '';
    return `<div class="scheme"><h3>${esc(scheme ?? pageText(lang, 'grant_other'))}</h3><ul>${entries.join('')}</ul>${listed}</div>`;
  });
  return `<section class="grants"><h2>${esc(pageText(lang, 'grants_heading'))}</h2>${blocks.join('')}</section>`;
}

/** What the figures assume, the milestones ahead and the data quality: the same sentences as the PDF report's. */
function conditions(model: ReportModel): string {
  if (model.steps.length === 0 && model.confidence === null) return '';
  const lang = model.language;
  const list = (items: string[]) => `<ul>${items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>`;
  const assumptions = assumptionSentences(lang, model);
  const milestones = model.milestones.map(
    (m) => `<li>${esc(milestoneText(lang, m, model.conditions.deed_date))} <strong>${esc(milestoneOutcome(lang, m, model))}</strong></li>`,
  );
  return `<section class="conditions-block">
${assumptions.length > 0 ? `<h2>${esc(pageText(lang, 'conditions_heading'))}</h2>${list(assumptions)}` : ''}
${milestones.length > 0 ? `<h2>${esc(pageText(lang, 'milestones_heading'))}</h2><ul>${milestones.join('')}</ul>` : ''}
<h2>${esc(pageText(lang, 'quality_heading'))}</h2>${list(qualitySentences(lang, model))}
</section>`;
}

function callToAction(model: ReportModel): string {
  const lang = model.language;
  const agency = model.agency;
  if (!agency)
    return `<section class="cta"><h2>${esc(pageText(lang, 'cta_heading'))}</h2><p>${esc(pageText(lang, 'cta_text_no_agency'))}</p></section>`;
  const actions: string[] = [];
  const dial = agency.phone?.replace(/[^\d+]/g, '') ?? '';
  if (agency.phone && dial.length > 0)
    actions.push(`<a class="button" href="tel:${esc(dial)}">${esc(pageText(lang, 'cta_call', { phone: agency.phone }))}</a>`);
  if (agency.email && EMAIL.test(agency.email))
    actions.push(`<a class="button" href="mailto:${esc(agency.email)}">${esc(pageText(lang, 'cta_email'))}</a>`);
  const website = agency.website ? webAddress(agency.website) : null;
  if (website) actions.push(`<a class="button" href="${esc(website)}" rel="noopener noreferrer">${esc(pageText(lang, 'cta_website'))}</a>`);
  return `<section class="cta">
<h2>${esc(pageText(lang, 'cta_heading'))}</h2>
<p>${esc(pageText(lang, 'cta_text', { agency: agency.name }))}</p>
${actions.length > 0 ? `<p class="actions">${actions.join('')}</p>` : ''}
${agency.email && EMAIL.test(agency.email) ? `<p class="contact">${esc(agency.email)}</p>` : ''}
</section>`;
}

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/** Only web addresses become links: an agency's `javascript:` or `data:` value is shown nowhere. */
function webAddress(value: string): string | null {
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`;
  try {
    const url = new URL(candidate);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** One stylesheet for both pages: readable from 360 px up, the table becomes cards on a phone. */
const STYLE = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2a33;background:#f4f6f7;line-height:1.45}
main{max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.9rem;margin:.1rem 0 .3rem}
h2{font-size:1.25rem;margin:0 0 .75rem}
section{background:#fff;border-radius:.75rem;padding:1rem 1.25rem;margin:1rem 0;box-shadow:0 1px 2px rgba(0,0,0,.08)}
.languages{background:#1d2a33}
.languages ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;justify-content:flex-end;max-width:60rem;margin:0 auto;padding:.5rem 1rem;list-style:none}
.languages a{color:#dfe7ec;text-decoration:none;font-size:.9rem}
.languages a[aria-current]{color:#fff;font-weight:700;text-decoration:underline}
.fallback{margin:0 0 .5rem;padding:.5rem .75rem;border-radius:.5rem;background:#fff4ce;color:#1d2a33}
.kicker{margin:0;text-transform:uppercase;letter-spacing:.06em;font-size:.8rem;color:#4d6372;font-weight:600}
.address,.facts{margin:.1rem 0;color:#4d6372}
.muted{color:#6b7780;font-weight:400;font-size:1rem}
.labels{display:flex;align-items:stretch;justify-content:center;gap:1rem;flex-wrap:wrap;text-align:center}
.label-card{flex:1 1 8rem;max-width:16rem;display:flex;flex-direction:column;align-items:center}
.caption{margin:0 0 .4rem;font-weight:600;flex:1 0 auto;display:flex;align-items:flex-end;justify-content:center}
.labels .arrow{align-self:center}
.big-label{display:inline-block;min-width:5.5rem;margin:0;padding:.4rem .8rem;border-radius:.6rem;color:#fff;font-size:3rem;font-weight:800;line-height:1.1}
.score{margin:.4rem 0 0;color:#4d6372;font-size:.9rem}
.arrow{font-size:2.2rem;color:#4d6372}
.summary dl,.money dl{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:.75rem;margin:0}
.figure{background:#f4f6f7;border-radius:.5rem;padding:.6rem .8rem}
.figure dt{font-size:.85rem;color:#4d6372}
.figure dd{margin:0;font-size:1.35rem;font-weight:700}
.money .figure dd{font-size:1.05rem}
.figure.net dd{color:#14613a}
.chart{display:block;width:100%;height:auto;max-height:26rem}
.chart .grid{stroke:#e3e8eb;stroke-width:1}
.chart .axis-line{stroke:#9aa7b0;stroke-width:1}
.chart .ladder{font-size:11px;font-weight:700}
.chart .tick,.chart .axis{fill:#4d6372;font-size:12px}
.chart .bar{fill:#2f6f9f;fill-opacity:.35}
.chart .path{fill:none;stroke:#1d2a33;stroke-width:2;stroke-dasharray:4 3}
.chart circle{stroke:#fff;stroke-width:2}
.legend{display:flex;flex-wrap:wrap;gap:.2rem 1rem;font-size:.85rem;color:#4d6372;margin:.5rem 0 0}
.key{display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:-.1rem}
.key.dot{border-radius:50%;background:#14613a}
.key.bar{background:rgba(47,111,159,.35)}
table{width:100%;border-collapse:collapse;font-size:.95rem}
th,td{padding:.5rem;text-align:left;vertical-align:top;border-bottom:1px solid #e3e8eb}
thead th{font-size:.8rem;color:#4d6372;font-weight:600;overflow-wrap:normal}
.amount{text-align:right;white-space:nowrap}
.grant{color:#14613a}
tfoot th,tfoot td{font-weight:700;border-bottom:0}
.includes{display:block;font-size:.85rem;color:#4d6372}
.meets{display:block;font-size:.85rem;font-weight:700;color:#14613a}
.phase{color:#4d6372;font-size:.9rem}
td.phase{overflow-wrap:normal;word-break:normal;hyphens:auto}
.income{margin:.75rem 0 0;font-size:.9rem;color:#4d6372}
.conditions-block ul{margin:0 0 1rem;padding-left:1.1rem}
.conditions-block li{margin:.3rem 0}
.chart .score-value{fill:#1d2a33;font-size:10px;font-weight:700;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
.badge{display:inline-block;min-width:2.4rem;padding:.1rem .4rem;border-radius:.35rem;color:#fff;font-weight:700;text-align:center}
.grants ul{margin:0;padding-left:1.1rem}
.grants li{margin:.3rem 0}
.scheme+.scheme{margin-top:1rem}
h3{font-size:1.05rem;margin:0 0 .4rem}
.conditions-caption{margin:.6rem 0 .2rem;font-size:.85rem;font-weight:600;color:#4d6372}
.grant-amount{font-weight:700;color:#14613a;white-space:nowrap}
.conditions{font-size:.85rem;color:#4d6372}
.cta{background:#14613a;color:#fff}
.cta .actions{display:flex;flex-wrap:wrap;gap:.6rem}
.button{display:inline-block;padding:.6rem 1rem;border-radius:.5rem;background:#fff;color:#14613a;font-weight:700;text-decoration:none}
.contact{font-size:.9rem;overflow-wrap:anywhere}
footer{font-size:.8rem;color:#4d6372;padding:0 .25rem 2rem}
main,section,td{overflow-wrap:anywhere}
@media (max-width:40rem){
  main{padding:.5rem}
  section{padding:.85rem}
  h1{font-size:1.5rem}
  .big-label{font-size:2.4rem;min-width:4.5rem}
  .arrow{font-size:1.6rem}
  .label-card{flex:1 1 6rem}
  .chart .tick,.chart .axis{font-size:15px}
  .chart .ladder{font-size:11.5px}
  thead{display:none}
  table,tbody,tfoot,tr,td,tfoot th{display:block;width:100%}
  tr{border:1px solid #e3e8eb;border-radius:.5rem;margin:0 0 .6rem;padding:.25rem .6rem}
  td,tfoot th{display:flex;justify-content:space-between;gap:.75rem;border:0;padding:.3rem 0;text-align:right;white-space:normal}
  td::before{content:attr(data-label);font-weight:600;color:#4d6372;text-align:left;flex:0 0 auto}
  td.measure{display:block;text-align:left}
  td.measure::before{display:block}
}
`;
