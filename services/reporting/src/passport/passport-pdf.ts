import type { GrantConditions, RenovationPassport, StepSpecification } from '@renopath/contracts';
import { labelsOf } from '@renopath/energy';
import { componentName, formatDate, formatMoney, formatNumber, formatPercent, hasTranslation, t } from '../i18n/index.ts';
import { term } from '../i18n/terms.ts';
import { labelColour } from '../pdf/label-colours.ts';
import { ACCENT, CONTENT_WIDTH, MUTED, PAGE, RULE, SHADE, Canvas } from '../pdf/layout.ts';
import type { ReportLanguage } from '../report-model.ts';

export interface PassportPdfInput {
  passport: RenovationPassport;
  language: ReportLanguage;
  generated_at: string;
}

/** `passport.<key>` in the language. */
const p = (lang: ReportLanguage, key: string, params: Record<string, string | number> = {}) => t(lang, `passport.${key}`, params);
/** A report key when the report's files have it (phases, units, types), else the code as it is. */
const passportWord = (lang: ReportLanguage, key: string, fallback: string) =>
  hasTranslation(lang, `passport.${key}`) ? t(lang, `passport.${key}`) : fallback;
const reportWord = (lang: ReportLanguage, key: string, fallback: string) =>
  hasTranslation(lang, `report.${key}`) ? t(lang, `report.${key}`) : fallback;

/** A field the planner may give as text or as a structure (a specification, grant conditions, financing), as one line. */
export function describe(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(describe).filter(Boolean).join('; ');
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${k.replaceAll('_', ' ')}: ${describe(v)}`)
    .join('; ');
}

/**
 * What to build, as a contractor reads it: the summary, then only the figures the step has, each with
 * its unit (an empty figure is left out, not printed as a blank field).
 */
export function specificationText(lang: ReportLanguage, spec: StepSpecification): string {
  const n = (x: number) => formatNumber(lang, x, 2);
  const figures = [
    spec.target_r_value !== null ? `R ≥ ${n(spec.target_r_value)} m²K/W` : null,
    spec.target_u_value !== null ? `U ≤ ${n(spec.target_u_value)} W/m²K` : null,
    spec.insulation_thickness_cm !== null ? `${n(spec.insulation_thickness_cm)} cm` : null,
    spec.material_class,
    spec.glazing_u_value !== null ? `Ug ≤ ${n(spec.glazing_u_value)} W/m²K` : null,
    spec.frame,
    spec.scop !== null ? `SCOP ≥ ${n(spec.scop)}` : null,
    spec.power_kw !== null ? `${n(spec.power_kw)} kW` : null,
  ].filter((x): x is string => x !== null && x !== '');
  return [spec.summary, figures.join(' · ')].filter(Boolean).join(' — ');
}

/** The grant's standing in the reader's language, then each scheme and what it asks. */
export function grantConditionsText(lang: ReportLanguage, grant: GrantConditions): string {
  const status = p(lang, `grant_status.${grant.status}`);
  const schemes = grant.schemes.join(', ');
  const conditions = grant.conditions.join('; ');
  return [status, schemes, conditions].filter(Boolean).join(' · ');
}

/** What each section of the page draws from: the canvas, the passport and the reader's language. */
interface Sheet {
  canvas: Canvas;
  passport: RenovationPassport;
  lang: ReportLanguage;
}

const moneyIn = (lang: ReportLanguage) => (x: number) => formatMoney(lang, x);
const numberIn = (lang: ReportLanguage) => (x: number) => formatNumber(lang, x);

/**
 * The printable passport: the building today, the roadmap drawn as labels, each step's figures,
 * specification and money, totals, milestones, assumptions, the advice contact, the site visit and
 * the signature block (advisor, accreditation, date, hash, where to verify). Text from the
 * translation files (`passport.*`, and the report's words for phases, units and types).
 */
export async function renderPassportPdf(input: PassportPdfInput): Promise<Uint8Array> {
  const { passport, language: lang } = input;
  const canvas = await Canvas.create(`${p(lang, 'title')} v${passport.version}`, lang, new Date(input.generated_at));
  const sheet: Sheet = { canvas, passport, lang };
  const status = drawTitle(sheet);
  drawBuilding(sheet);
  drawTarget(sheet);
  drawSteps(sheet);
  drawTotals(sheet);
  drawMilestones(sheet);
  drawAssumptions(sheet);
  drawSiteVisit(sheet);
  drawSignature(sheet);
  const num = numberIn(lang);
  canvas.footers(`${p(lang, 'title')} v${passport.version} · ${status}`, (page, pages) =>
    p(lang, 'footer.page', { page: num(page), pages: num(pages) }),
  );
  return canvas.doc.save({ useObjectStreams: true });
}

/** The title, the version and the passport's standing (draft, or signed on a date); returns that standing. */
function drawTitle({ canvas, passport, lang }: Sheet): string {
  canvas.text(p(lang, 'title'), PAGE.margin, canvas.y, { size: 22, bold: true, color: ACCENT });
  canvas.textRight(p(lang, 'version', { version: passport.version }), PAGE.width - PAGE.margin, canvas.y + 4, { size: 11, bold: true });
  canvas.y += 28;
  canvas.paragraph(p(lang, 'subtitle'), { size: 9.5, color: MUTED });
  const status =
    passport.status === 'SIGNED' && passport.signed_at
      ? p(lang, 'status.SIGNED', { date: formatDate(lang, passport.signed_at) })
      : p(lang, 'status.DRAFT');
  canvas.text(status, PAGE.margin, canvas.y, { size: 10, bold: true, color: passport.status === 'SIGNED' ? ACCENT : MUTED });
  canvas.y += 18;
  canvas.rule();
  canvas.y += 10;
  return status;
}

/** The building today: address, type, year, area, label and energy figures, and how much of it was measured. */
function drawBuilding({ canvas, passport, lang }: Sheet): void {
  const money = moneyIn(lang);
  const num = numberIn(lang);
  const b = passport.content.building;
  const address = [
    [b.address.street, b.address.house_number, b.address.house_number_extra].filter(Boolean).join(' '),
    [b.address.zip_code, b.address.place].filter(Boolean).join(' '),
  ]
    .filter((l) => l.length > 0)
    .join(', ');
  canvas.heading(p(lang, 'building.title'), 14, 200);
  const labelBox = 70;
  const top = canvas.y;
  const badge = labelColour(b.scale, b.epc_label);
  canvas.rect(PAGE.width - PAGE.margin - labelBox, top, labelBox, 54, badge.fill);
  canvas.textCentered(b.epc_label, PAGE.width - PAGE.margin - labelBox / 2, top + 8, { size: 24, bold: true, color: badge.text });
  canvas.textCentered(num(b.epc_score), PAGE.width - PAGE.margin - labelBox / 2, top + 38, { size: 9, bold: true, color: badge.text });
  const rows: Array<[string, string]> = [
    [p(lang, 'building.address'), address || '–'],
    [
      p(lang, 'building.type'),
      [
        b.estate_type ? reportWord(lang, `estate_type.${b.estate_type}`, b.estate_type) : null,
        b.estate_format ? passportWord(lang, `format.${b.estate_format}`, b.estate_format) : null,
      ]
        .filter(Boolean)
        .join(', ') || '–',
    ],
    [p(lang, 'building.year_built'), b.year_built !== null ? String(b.year_built) : '–'],
    [p(lang, 'building.area'), b.habitable_space_m2 !== null ? `${num(b.habitable_space_m2)} m²` : '–'],
    // The label's name is the shared vocabulary's (the report and the page say the same: a Flemish EPC-label).
    [term(lang, 'current_label'), `${b.epc_label} (${p(lang, 'building.score')} ${num(b.epc_score)})`],
    [
      p(lang, 'building.primary_energy'),
      b.primary_energy_kwh_m2 !== null
        ? `${num(b.primary_energy_kwh_m2)} kWh/m² · ${p(lang, 'building.per_year', { value: `${num(b.primary_energy_kwh_per_year)} kWh` })}`
        : p(lang, 'building.per_year', { value: `${num(b.primary_energy_kwh_per_year)} kWh` }),
    ],
    [p(lang, 'building.co2'), p(lang, 'building.per_year', { value: `${num(b.co2_kg_year)} kg` })],
    [p(lang, 'building.energy_cost'), p(lang, 'building.per_year', { value: money(b.energy_cost_eur_per_year) })],
  ];
  const keyWidth = 130;
  for (const [key, value] of rows) {
    const lines = canvas.wrap(value, CONTENT_WIDTH - keyWidth - labelBox - 12, { size: 9.5 });
    canvas.text(key, PAGE.margin, canvas.y, { size: 9.5, color: MUTED });
    lines.forEach((line, i) => canvas.text(line, PAGE.margin + keyWidth, canvas.y + i * 12, { size: 9.5 }));
    canvas.y += 12 * lines.length + 2;
  }
  canvas.y += 6;
  const q = b.data_quality;
  const fields = (list: string[]) =>
    list.length === 0 ? p(lang, 'quality.none') : list.map((f) => reportWord(lang, `field.${f}`, f.replaceAll('_', ' '))).join(', ');
  canvas.text(p(lang, 'quality.title'), PAGE.margin, canvas.y, { size: 10, bold: true });
  canvas.y += 14;
  canvas.paragraph(p(lang, 'quality.summary', { score: formatNumber(lang, q.confidence_score, 2), label: q.quality_label }), { size: 9 });
  canvas.paragraph(p(lang, 'quality.measured', { fields: fields(q.measured) }), { size: 9 });
  canvas.paragraph(p(lang, 'quality.defaults', { fields: fields(q.model_defaults) }), { size: 9 });
  canvas.y += 6;
}

/** The target label and year, the roadmap towards it and whom to ask for advice. */
function drawTarget({ canvas, passport, lang }: Sheet): void {
  const c = passport.content;
  canvas.heading(p(lang, 'target.title'), 14, 160);
  canvas.paragraph(
    `${p(lang, 'target.text', { label: c.target.label, year: c.target.year })} ${
      c.target.reached_by_step !== null ? p(lang, 'target.reached', { step: c.target.reached_by_step }) : p(lang, 'target.not_reached')
    }`,
    { size: 9.5 },
  );
  canvas.y += 6;
  drawRoadmap(canvas, passport, lang);
  canvas.heading(p(lang, 'contact.title'), 14, 40);
  canvas.paragraph(p(lang, 'contact.text', { name: c.advice_contact.name, url: c.advice_contact.url, phone: c.advice_contact.phone }), {
    size: 9.5,
  });
}

/** The steps on a page of their own: each one's heading with the label after it, then its lines. */
function drawSteps(sheet: Sheet): void {
  const { canvas, passport, lang } = sheet;
  canvas.newPage();
  canvas.heading(p(lang, 'steps.title'), 15, 120);
  for (const step of passport.content.steps) drawStep(sheet, step);
}

type PassportStep = RenovationPassport['content']['steps'][number];

function drawStep({ canvas, passport, lang }: Sheet, step: PassportStep): void {
  canvas.ensure(150);
  const colour = labelColour(passport.content.building.scale, step.epc_label_after);
  const headTop = canvas.y;
  canvas.rect(PAGE.margin, headTop - 3, CONTENT_WIDTH, 18, SHADE);
  canvas.text(
    p(lang, 'step.heading', { order: step.order, title: componentName(lang, step.renovation_component_type) }),
    PAGE.margin + 6,
    headTop,
    {
      size: 10.5,
      bold: true,
    },
  );
  canvas.rect(PAGE.width - PAGE.margin - 40, headTop - 3, 40, 18, colour.fill);
  canvas.textCentered(step.epc_label_after, PAGE.width - PAGE.margin - 20, headTop, { size: 10, bold: true, color: colour.text });
  canvas.y += 22;
  // The advisor's change first: the figures below are the changed ones, the planner's reason is not.
  if (step.override)
    canvas.paragraph(
      p(lang, 'step.override', { note: step.override.note }),
      { size: 9, bold: true, color: ACCENT },
      PAGE.margin + 6,
      CONTENT_WIDTH - 12,
      2,
    );
  for (const line of stepLines(lang, step)) canvas.paragraph(line, { size: 9 }, PAGE.margin + 6, CONTENT_WIDTH - 12, 2);
  canvas.y += 8;
}

/** A step's lines: phase and quantity, what to build, its effect and money, and only the facts it has besides. */
function stepLines(lang: ReportLanguage, step: PassportStep): string[] {
  const money = moneyIn(lang);
  const num = numberIn(lang);
  const unit = passportWord(lang, `unit.${step.unit}`, reportWord(lang, `units.${step.unit}`, step.unit));
  const lines: string[] = [
    `${p(lang, 'step.phase', { phase: step.phase ? reportWord(lang, `phase.${step.phase}`, step.phase) : '–' })} · ${p(
      lang,
      'step.quantity',
      {
        quantity: `${formatNumber(lang, step.quantity, 1)} ${unit}`,
      },
    )}`,
  ];
  if (step.specification !== null) lines.push(p(lang, 'step.specification', { text: specificationText(lang, step.specification) }));
  // The planner writes its reasons in English: another language's passport leaves them out rather than mix languages.
  if (lang === 'en') lines.push(p(lang, 'step.rationale', { text: step.rationale }));
  lines.push(
    `${p(lang, 'step.label_after', { label: step.epc_label_after, score: num(step.epc_score_after) })} · ${p(lang, 'step.energy_savings', {
      value: num(step.energy_savings_kwh_per_year),
    })}`,
  );
  lines.push(
    `${p(lang, 'step.cost_savings', { value: money(step.cost_savings_eur_per_year) })} · ${p(lang, 'step.co2_savings', {
      value: num(step.co2_savings_kg_per_year),
    })}`,
  );
  lines.push(
    p(lang, 'step.cost', {
      cost: money(step.estimated_cost),
      vat: money(step.estimated_vat_cost),
      grant: money(step.subsidy_amount),
      net: money(step.net_cost),
    }),
  );
  return [...lines, ...stepFacts(lang, step)];
}

/** The step's optional facts, each only when the step has it. */
function stepFacts(lang: ReportLanguage, step: PassportStep): string[] {
  const num = numberIn(lang);
  const works = step.supporting_works.map((w) => componentName(lang, w.renovation_component_type)).join(', ');
  return [
    step.supporting_works.length > 0 ? p(lang, 'step.supporting', { works }) : null,
    step.grant_conditions !== null ? p(lang, 'step.grant_conditions', { text: grantConditionsText(lang, step.grant_conditions) }) : null,
    step.financing !== null ? p(lang, 'step.financing', { text: describe(step.financing) }) : null,
    step.heat_pump_kw !== null ? p(lang, 'step.heat_pump_kw', { value: formatNumber(lang, step.heat_pump_kw, 1) }) : null,
    step.lifetime_years !== null ? p(lang, 'step.lifetime', { value: num(step.lifetime_years) }) : null,
    step.maintenance !== null ? p(lang, 'step.maintenance', { text: step.maintenance }) : null,
    step.planned_year !== null ? p(lang, 'step.planned_year', { year: step.planned_year }) : null,
  ].filter((line): line is string => line !== null);
}

/**
 * A section's opening: a new page unless `room` points fit, then its heading with at least `keepWith`
 * points of content kept on its page. Returns the passport's content the section draws from.
 */
function openSection({ canvas, passport, lang }: Sheet, title: string, room: number, keepWith: number) {
  canvas.ensure(room);
  canvas.heading(p(lang, title), 14, keepWith);
  return passport.content;
}

/** The plan's totals: cost, VAT, grants, net cost, and what it saves a year. */
function drawTotals(sheet: Sheet): void {
  const { canvas, lang } = sheet;
  const money = moneyIn(lang);
  const num = numberIn(lang);
  const c = openSection(sheet, 'totals.title', 110, 100);
  const tt = c.totals;
  for (const [key, value] of [
    [p(lang, 'totals.cost'), money(tt.estimated_cost)],
    [p(lang, 'totals.vat'), money(tt.estimated_vat_cost)],
    [p(lang, 'totals.grants'), money(tt.subsidy_amount)],
    [p(lang, 'totals.net'), money(tt.net_cost)],
    [
      p(lang, 'totals.savings'),
      p(lang, 'totals.savings_value', {
        kwh: num(tt.energy_savings_kwh_per_year),
        eur: money(tt.cost_savings_eur_per_year),
        co2: num(tt.co2_savings_kg_per_year),
      }),
    ],
  ] as const) {
    canvas.text(key, PAGE.margin, canvas.y, { size: 9.5, color: MUTED });
    canvas.text(value, PAGE.margin + 150, canvas.y, { size: 9.5, bold: key === p(lang, 'totals.net') });
    canvas.y += 14;
  }
  canvas.y += 8;
}

/** The milestones the rules set (a label by a date), and the step that reaches each. */
function drawMilestones(sheet: Sheet): void {
  const { canvas, lang } = sheet;
  const c = openSection(sheet, 'milestones.title', 60, 60);
  if (c.milestones.length === 0) canvas.paragraph(p(lang, 'milestones.none'), { size: 9 });
  for (const m of c.milestones) {
    const kind = reportWord(lang, `milestone.short.${m.kind}`, m.kind);
    const parts = [
      p(lang, 'milestone.line', { kind, label: m.label }),
      ...(m.deadline ? [p(lang, 'milestone.deadline', { date: formatDate(lang, m.deadline) })] : []),
      m.reached_by_step !== null ? p(lang, 'milestone.reached', { step: m.reached_by_step }) : p(lang, 'milestone.not_reached'),
    ];
    canvas.paragraph(`• ${parts.join(' · ')}`, { size: 9 }, PAGE.margin, CONTENT_WIDTH, 2);
  }
  canvas.y += 8;
}

/** What the figures rest on: price year, energy prices, income category, versions, the price error, the edits' method. */
function drawAssumptions(sheet: Sheet): void {
  const { canvas, lang } = sheet;
  const a = openSection(sheet, 'assumptions.title', 120, 100).assumptions;
  const prices = a.energy_prices.prices
    .map((x) => `${passportWord(lang, `carrier.${x.carrier}`, x.carrier)} ${formatMoney(lang, x.eur_per_kwh, 3)}`)
    .join(', ');
  for (const line of [
    p(lang, 'assumptions.price_year', { year: a.price_year }),
    p(lang, 'assumptions.energy_prices', { country: a.energy_prices.country, year: a.energy_prices.year, prices }),
    a.income_category ? p(lang, 'assumptions.income', { category: a.income_category }) : p(lang, 'assumptions.income_unknown'),
    p(lang, 'assumptions.versions', { model: a.model_version, catalogue: a.catalogue_version }),
    p(lang, 'assumptions.price_error', {
      average: formatPercent(lang, a.expected_price_error.average_pct),
      sd: formatPercent(lang, a.expected_price_error.standard_deviation_pct),
    }),
    ...(lang === 'en' ? a.notes : []),
    // The content states the method in English (it is hashed once); the page says it in the reader's language.
    p(lang, 'assumptions.edits', { text: p(lang, 'edits_method') }),
  ])
    canvas.paragraph(line, { size: 8.5 }, PAGE.margin, CONTENT_WIDTH, 2);
  canvas.y += 8;
}

/** The advisor's site visit, or that none was made. */
function drawSiteVisit(sheet: Sheet): void {
  const { canvas, lang } = sheet;
  const v = openSection(sheet, 'visit.title', 200, 80).site_visit;
  if (!v) canvas.paragraph(p(lang, 'visit.none'), { size: 9.5, color: MUTED });
  else {
    canvas.paragraph(p(lang, 'visit.date', { date: formatDate(lang, `${v.date}T12:00:00Z`) }), { size: 9.5 });
    canvas.paragraph(p(lang, 'visit.advisor', { name: v.advisor_name, number: v.accreditation_number }), { size: 9.5 });
    if (v.notes) canvas.paragraph(p(lang, 'visit.notes', { text: v.notes }), { size: 9.5 });
  }
  canvas.y += 8;
}

/** The signature block: who signed, when, the content's hash and where to verify it; or that it is not signed. */
function drawSignature({ canvas, passport, lang }: Sheet): void {
  canvas.heading(p(lang, 'signature.title'), 14, 100);
  const boxTop = canvas.y;
  canvas.y += 8;
  if (passport.status === 'SIGNED' && passport.signed_by && passport.signed_at && passport.content_sha256) {
    const x = PAGE.margin + 10;
    const width = CONTENT_WIDTH - 20;
    canvas.paragraph(
      p(lang, 'signature.by', {
        name: passport.signed_by.advisor_name,
        number: passport.signed_by.accreditation_number,
        date: formatDate(lang, passport.signed_at),
      }),
      { size: 10, bold: true },
      x,
      width,
    );
    canvas.paragraph(p(lang, 'signature.hash'), { size: 8.5, color: MUTED }, x, width, 2);
    canvas.paragraph(passport.content_sha256, { size: 8.5 }, x, width);
    if (passport.verification_url) {
      canvas.paragraph(p(lang, 'signature.verify'), { size: 8.5, color: MUTED }, x, width, 2);
      canvas.paragraph(passport.verification_url, { size: 8.5, color: ACCENT }, x, width);
    }
  } else {
    canvas.paragraph(p(lang, 'signature.unsigned'), { size: 10, color: MUTED }, PAGE.margin + 10, CONTENT_WIDTH - 20);
  }
  canvas.y += 4;
  canvas.rect(PAGE.margin, boxTop, CONTENT_WIDTH, canvas.y - boxTop, undefined, RULE);
}

/** The roadmap as a row of label badges, now then each step, joined by arrows; the scale's labels as a legend. */
function drawRoadmap(canvas: Canvas, passport: RenovationPassport, lang: ReportLanguage): void {
  const c = passport.content;
  const scale = c.building.scale;
  canvas.ensure(150);
  canvas.heading(p(lang, 'roadmap.title'), 14, 140);
  const columns = [
    { name: p(lang, 'roadmap.now'), label: c.building.epc_label, score: c.building.epc_score, year: null as number | null },
    ...c.steps.map((s) => ({
      name: p(lang, 'roadmap.step', { order: s.order }),
      label: s.epc_label_after,
      score: s.epc_score_after,
      year: s.planned_year,
    })),
  ];
  const ladder = labelsOf(scale);
  const width = CONTENT_WIDTH / Math.max(columns.length, 1);
  const box = Math.min(54, width - 10);
  const rowTop = canvas.y;
  // Worse labels sit lower: the roadmap climbs as the home improves.
  const rank = (label: string) => Math.max(0, ladder.indexOf(label));
  const maxRank = Math.max(1, ...columns.map((col) => rank(col.label)));
  const drop = (label: string) => (rank(label) / maxRank) * 50;
  columns.forEach((col, i) => {
    const x = PAGE.margin + i * width + (width - box) / 2;
    const y = rowTop + drop(col.label);
    const colour = labelColour(scale, col.label);
    canvas.rect(x, y, box, 30, colour.fill);
    canvas.textCentered(col.label, x + box / 2, y + 6, { size: 14, bold: true, color: colour.text });
    canvas.textCentered(col.name, x + box / 2, rowTop + 88, { size: 8, bold: true });
    canvas.textCentered(formatNumber(lang, col.score), x + box / 2, rowTop + 99, { size: 7.5, color: MUTED });
    if (col.year !== null) canvas.textCentered(String(col.year), x + box / 2, rowTop + 109, { size: 7.5, color: MUTED });
    if (i > 0) {
      const prev = columns[i - 1]!;
      const px = PAGE.margin + (i - 1) * width + (width - box) / 2 + box;
      canvas.line(px + 2, rowTop + drop(prev.label) + 15, x - 2, y + 15, ACCENT, 1.2);
    }
  });
  canvas.y = rowTop + 124;
}
