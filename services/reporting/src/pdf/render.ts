import type { PDFImage } from 'pdf-lib';
import { formatDate, formatMoney, formatNumber, formatPercent, hasTranslation, t, componentName } from '../i18n/index.ts';
import { assumptionSentences, milestoneOutcome, milestoneText, qualitySentences } from '../i18n/conditions-text.ts';
import { conditionLines } from '../i18n/grant-conditions.ts';
import { moneyText } from '../i18n/money-text.ts';
import type { ReportLanguage, ReportModel, ReportMoney } from '../report-model.ts';
import { term, termOf } from '../i18n/terms.ts';
import { drawTrajectoryChart } from './chart.ts';
import { labelColour } from './label-colours.ts';
import { ACCENT, CONTENT_WIDTH, INK, MUTED, PAGE, RULE, SHADE, Canvas } from './layout.ts';
import { drawStepsTable } from './table.ts';

/**
 * The report as a PDF: cover (address, photo, current and reachable label, overview), the trajectory
 * chart, the steps table, grants per category, then assumptions, data sources and confidence. Every
 * text comes from the language's translation files or from the model; nothing is fetched.
 */
export async function renderReportPdf(model: ReportModel): Promise<Uint8Array> {
  const lang = model.language;
  const generated = new Date(model.generated_at);
  const canvas = await Canvas.create(t(lang, 'report.title'), lang, generated);

  await drawCover(canvas, model);
  canvas.newPage();
  drawTrajectoryChart(canvas, model);
  // Sections start on their own page when they have content; without steps they are a line each.
  const section = () => (model.steps.length > 0 ? canvas.newPage() : void (canvas.y += 10));
  section();
  drawStepsTable(canvas, model);
  section();
  drawGrants(canvas, model);
  canvas.y += 10;
  drawAssumptionsAndSources(canvas, model);
  canvas.y += 10;
  drawConfidence(canvas, model);

  canvas.footers(
    `${t(lang, 'report.title')} · ${t(lang, 'report.footer.generated', { date: formatDate(lang, model.generated_at) })}`,
    (page, pages) => t(lang, 'report.footer.page', { page: formatNumber(lang, page), pages: formatNumber(lang, pages) }),
  );
  return canvas.doc.save({ useObjectStreams: true });
}

/**
 * The cover's title lines: the street and number, else the estate's own title, then postcode and place;
 * a home known only by its place is "Woning in 9000 Gent" (a bare postcode is no title).
 */
export function addressLines(model: Pick<ReportModel, 'estate' | 'language'>): string[] {
  const { title, street, house_number, zip_code, place } = model.estate;
  const address = [street, house_number].filter((p) => p !== null && p.trim() !== '').join(' ');
  const first = street?.trim() ? address : (title?.trim() ?? '');
  const second = [zip_code, place].filter((p) => p !== null && p.trim() !== '').join(' ');
  if (first.length === 0 && second.length > 0) return [term(model.language, 'home_in_place', { place: second })];
  return [first, second].filter((l) => l.length > 0);
}

async function embedPhoto(canvas: Canvas, model: ReportModel): Promise<PDFImage | null> {
  const photo = model.estate.photo;
  if (!photo || photo.bytes.length === 0) return null;
  try {
    return photo.mimetype === 'image/png' ? await canvas.doc.embedPng(photo.bytes) : await canvas.doc.embedJpg(photo.bytes);
  } catch {
    // A damaged or mislabelled image must not cost the owner the report: the cover shows "no photo".
    return null;
  }
}

async function drawCover(canvas: Canvas, model: ReportModel): Promise<void> {
  const lang = model.language;
  canvas.rect(0, 0, PAGE.width, 92, ACCENT);
  canvas.text(t(lang, 'report.title'), PAGE.margin, 30, { size: 24, bold: true, color: SHADE });
  canvas.text(t(lang, 'report.cover.subtitle'), PAGE.margin, 62, { size: 11, color: SHADE });
  canvas.y = 112;

  const address = addressLines(model);
  if (address.length === 0) {
    canvas.text(t(lang, 'report.cover.address_unknown'), PAGE.margin, canvas.y, { size: 14, bold: true, color: MUTED });
    canvas.y += 22;
  } else {
    for (const [i, line] of address.entries()) {
      for (const part of canvas.wrap(line, CONTENT_WIDTH, { size: i === 0 ? 16 : 12, bold: i === 0 }, 3)) {
        canvas.text(part, PAGE.margin, canvas.y, { size: i === 0 ? 16 : 12, bold: i === 0, color: i === 0 ? INK : MUTED });
        canvas.y += i === 0 ? 20 : 16;
      }
    }
  }
  canvas.y += 6;

  await drawCoverPhoto(canvas, model);

  // Current and reachable label side by side.
  const half = (CONTENT_WIDTH - 20) / 2;
  const badge = (x: number, title: string, label: string | null, score: number | null) => {
    const top = canvas.y;
    canvas.text(title, x, top, { size: 9, bold: true, color: MUTED });
    const colour = labelColour(model.scale, label);
    const text = label ?? term(lang, 'label_unknown');
    const size = label === null ? 12 : 22;
    const w = Math.max(70, canvas.width(text, { size, bold: true }) + 24);
    canvas.rect(x, top + 14, w, 38, colour.fill);
    canvas.textCentered(text, x + w / 2, top + 14 + (38 - size) / 2, { size, bold: true, color: colour.text });
    if (score !== null) {
      canvas.text(t(lang, 'report.cover.score', { score: formatNumber(lang, score) }), x + w + 10, top + 28, { size: 9, color: INK });
    }
  };
  badge(PAGE.margin, term(lang, 'current_label'), model.current.epc_label, model.current.epc_score);
  canvas.text('→', PAGE.margin + half - 2, canvas.y + 24, { size: 16, color: MUTED });
  badge(PAGE.margin + half + 20, term(lang, 'reachable_label'), model.reachable.epc_label, model.reachable.epc_score);
  canvas.y += 66;

  // Facts of the home (left) and the money overview (right).
  const top = canvas.y;
  const facts: Array<[string, string]> = [[t(lang, 'report.cover.scale'), termOf(lang, `scale.${model.scale}`) ?? model.scale]];
  if (model.estate.estate_type !== null) {
    facts.push([t(lang, 'report.cover.estate_type'), termOf(lang, `estate_type.${model.estate.estate_type}`) ?? model.estate.estate_type]);
  }
  if (model.estate.year_built !== null) facts.push([t(lang, 'report.cover.year_built'), String(model.estate.year_built)]);
  if (model.estate.habitable_space_m2 !== null) {
    facts.push([
      t(lang, 'report.cover.habitable_space'),
      `${formatNumber(lang, model.estate.habitable_space_m2)} ${t(lang, 'report.units.m2')}`,
    ]);
  }
  facts.push([t(lang, 'report.cover.steps_count'), formatNumber(lang, model.steps.length)]);
  keyValues(canvas, facts, PAGE.margin, top, half);
  const afterFacts = canvas.y;

  canvas.y = top;
  canvas.text(t(lang, 'report.cover.overview'), PAGE.margin + half + 20, canvas.y, { size: 11, bold: true, color: ACCENT });
  canvas.y += 18;
  const m = model.totals;
  keyValues(
    canvas,
    [
      [t(lang, 'report.totals.estimated_cost'), formatMoney(lang, m.estimated_cost)],
      [t(lang, 'report.totals.vat'), formatMoney(lang, m.estimated_vat_cost)],
      [t(lang, 'report.totals.incl_vat'), formatMoney(lang, m.total_estimated_cost_incl_vat)],
      [t(lang, 'report.totals.subsidy'), `− ${formatMoney(lang, m.subsidy_amount)}`],
      [t(lang, 'report.totals.net'), formatMoney(lang, m.net_cost)],
    ],
    PAGE.margin + half + 20,
    canvas.y,
    half,
    true,
  );
  canvas.y = Math.max(canvas.y, afterFacts) + 14;
  if (model.money) drawMoney(canvas, model.language, model.money);

  if (model.agency) drawAgency(canvas, lang, model.agency);
}

/** The photo, fitted into a fixed frame so the rest of the cover keeps its place; without one, no empty box. */
async function drawCoverPhoto(canvas: Canvas, model: ReportModel): Promise<void> {
  const image = await embedPhoto(canvas, model);
  if (image) {
    const frame = { x: PAGE.margin, top: canvas.y, width: CONTENT_WIDTH, height: 230 };
    canvas.rect(frame.x, frame.top, frame.width, frame.height, SHADE);
    const scale = Math.min(frame.width / image.width, frame.height / image.height);
    const w = image.width * scale;
    const h = image.height * scale;
    canvas.page.drawImage(image, {
      x: frame.x + (frame.width - w) / 2,
      y: PAGE.height - frame.top - (frame.height + h) / 2,
      width: w,
      height: h,
    });
    canvas.y = frame.top + frame.height + 16;
  } else {
    canvas.y += 10;
  }
}

function drawAgency(canvas: Canvas, lang: ReportLanguage, a: NonNullable<ReportModel['agency']>): void {
  const lines = [
    a.phone ? `${t(lang, 'report.agency.phone')}: ${a.phone}` : null,
    a.email ? `${t(lang, 'report.agency.email')}: ${a.email}` : null,
    a.website ? `${t(lang, 'report.agency.website')}: ${a.website}` : null,
  ].filter((l): l is string => l !== null);
  const height = 34 + lines.length * 13;
  canvas.ensure(height);
  canvas.rect(PAGE.margin, canvas.y, CONTENT_WIDTH, height, SHADE, RULE);
  canvas.text(t(lang, 'report.agency.title'), PAGE.margin + 10, canvas.y + 8, { size: 8, bold: true, color: MUTED });
  canvas.text(canvas.wrap(a.name, CONTENT_WIDTH - 20, { size: 11, bold: true }, 1)[0] ?? '', PAGE.margin + 10, canvas.y + 20, {
    size: 11,
    bold: true,
  });
  lines.forEach((line, i) =>
    canvas.text(canvas.wrap(line, CONTENT_WIDTH - 20, { size: 9 }, 1)[0] ?? '', PAGE.margin + 10, canvas.y + 36 + i * 13, { size: 9 }),
  );
  canvas.y += height;
}

/** The household's money: bill before and after, monthly repayment against monthly saving, paybacks, what the meter gave. */
function drawMoney(canvas: Canvas, lang: ReportLanguage, money: ReportMoney): void {
  const text = moneyText(lang, 'report', money);
  const note = canvas.wrap(text.note, CONTENT_WIDTH, { size: 8.5 }, 6);
  canvas.ensure(18 + text.rows.length * 16 + note.length * 11 + 10);
  canvas.text(text.title, PAGE.margin, canvas.y, { size: 11, bold: true, color: ACCENT });
  canvas.y += 18;
  keyValues(canvas, text.rows, PAGE.margin, canvas.y, CONTENT_WIDTH);
  note.forEach((line, i) => canvas.text(line, PAGE.margin, canvas.y + i * 11, { size: 8.5, color: MUTED }));
  canvas.y += note.length * 11 + 12;
}

/** Two columns of name and value; the last row emphasised when `lastBold`. */
function keyValues(canvas: Canvas, rows: Array<[string, string]>, x: number, top: number, width: number, lastBold = false): void {
  canvas.y = top;
  rows.forEach(([name, value], i) => {
    const bold = lastBold && i === rows.length - 1;
    if (bold) canvas.line(x, canvas.y - 3, x + width, canvas.y - 3, INK, 0.75);
    const valueWidth = canvas.width(value, { size: 9.5, bold: true });
    const nameLines = canvas.wrap(name, width - valueWidth - 10, { size: 9.5, bold }, 2);
    nameLines.forEach((line, n) => canvas.text(line, x, canvas.y + n * 12, { size: 9.5, bold, color: bold ? INK : MUTED }));
    canvas.textRight(value, x + width, canvas.y, { size: 9.5, bold: true });
    canvas.y += Math.max(1, nameLines.length) * 12 + 4;
  });
}

function drawGrants(canvas: Canvas, model: ReportModel): void {
  const lang = model.language;
  canvas.heading(t(lang, 'report.grants.title'));
  const categories = model.grants.filter((c) => c.items.length > 0 || c.total_subsidy_amount > 0);
  if (categories.length === 0) {
    canvas.paragraph(t(lang, 'report.grants.none'), { color: MUTED });
    return;
  }
  for (const category of categories) {
    canvas.ensure(50);
    const key = `report.grant_category.${category.category}`;
    const name = hasTranslation(lang, key) ? t(lang, key) : t(lang, 'report.grant_category.OTHER');
    canvas.rect(PAGE.margin, canvas.y, CONTENT_WIDTH, 18, SHADE);
    canvas.text(name, PAGE.margin + 6, canvas.y + 4, { size: 10, bold: true });
    canvas.textRight(
      `${t(lang, 'report.grants.category_total')}: ${formatMoney(lang, category.total_subsidy_amount)}`,
      PAGE.width - PAGE.margin - 6,
      canvas.y + 5,
      { size: 8.5, bold: true, color: ACCENT },
    );
    canvas.y += 24;
    for (const item of category.items) {
      canvas.ensure(30);
      const amount = formatMoney(lang, item.subsidy_amount);
      const amountWidth = canvas.width(amount, { size: 9, bold: true });
      const nameLines = canvas.wrap(
        componentName(lang, item.renovation_component_type),
        CONTENT_WIDTH - amountWidth - 30,
        { size: 9, bold: true },
        2,
      );
      nameLines.forEach((line, n) => canvas.text(line, PAGE.margin + 6, canvas.y + n * 12, { size: 9, bold: true }));
      canvas.textRight(amount, PAGE.width - PAGE.margin - 6, canvas.y, { size: 9, bold: true });
      canvas.y += nameLines.length * 12 + 2;
      const scheme = item.scheme ?? t(lang, 'report.grants.no_scheme');
      canvas.paragraph(
        `${t(lang, 'report.grants.scheme')}: ${scheme}`,
        { size: 8.5, color: MUTED },
        PAGE.margin + 14,
        CONTENT_WIDTH - 20,
        1,
      );
      const conditions = conditionLines(lang, item.conditions);
      if (conditions.length > 0) {
        canvas.paragraph(`${t(lang, 'report.grants.conditions')}:`, { size: 8.5, color: MUTED }, PAGE.margin + 14, CONTENT_WIDTH - 20, 0);
        for (const condition of conditions) canvas.paragraph(`• ${condition}`, { size: 8.5 }, PAGE.margin + 22, CONTENT_WIDTH - 30, 0);
      }
      canvas.y += 6;
    }
    canvas.y += 4;
  }
  canvas.paragraph(t(lang, 'report.grants.conditions_note'), { size: 7.5, color: MUTED });
}

function drawAssumptionsAndSources(canvas: Canvas, model: ReportModel): void {
  const lang = model.language;
  canvas.heading(t(lang, 'report.assumptions.title'));
  const assumptions = [...assumptionSentences(lang, model), ...model.assumptions];
  if (assumptions.length === 0) canvas.paragraph(t(lang, 'report.assumptions.none'), { color: MUTED });
  for (const assumption of assumptions) canvas.paragraph(`• ${assumption}`, { size: 9 }, PAGE.margin + 4, CONTENT_WIDTH - 4, 2);
  canvas.y += 10;

  canvas.heading(t(lang, 'report.milestones.title'));
  if (model.milestones.length === 0) canvas.paragraph(t(lang, 'report.milestones.none'), { color: MUTED });
  for (const m of model.milestones) {
    canvas.paragraph(`• ${milestoneText(lang, m, model.conditions.deed_date)}`, { size: 9 }, PAGE.margin + 4, CONTENT_WIDTH - 4, 0);
    canvas.paragraph(
      milestoneOutcome(lang, m, model),
      { size: 9, bold: true, color: m.reached_at_step === null ? MUTED : ACCENT },
      PAGE.margin + 12,
      CONTENT_WIDTH - 12,
      2,
    );
  }
  canvas.y += 10;

  canvas.heading(t(lang, 'report.sources.title'));
  if (model.sources.length === 0) {
    canvas.paragraph(t(lang, 'report.sources.none'), { color: MUTED });
    return;
  }
  const half = CONTENT_WIDTH / 2;
  const header = () => {
    canvas.rect(PAGE.margin, canvas.y, CONTENT_WIDTH, 15, SHADE);
    canvas.text(t(lang, 'report.sources.col.field'), PAGE.margin + 4, canvas.y + 4, { size: 8, bold: true });
    canvas.text(t(lang, 'report.sources.col.source'), PAGE.margin + half, canvas.y + 4, { size: 8, bold: true });
    canvas.y += 17;
  };
  header();
  for (const { field, source } of model.sources) {
    if (canvas.y + 13 > canvas.bottom) {
      canvas.newPage();
      header();
    }
    const fieldKey = `report.field.${field}`;
    const sourceKey = `report.source.${source}`;
    canvas.text(hasTranslation(lang, fieldKey) ? t(lang, fieldKey) : field, PAGE.margin + 4, canvas.y, { size: 8.5 });
    canvas.text(hasTranslation(lang, sourceKey) ? t(lang, sourceKey) : source, PAGE.margin + half, canvas.y, { size: 8.5, color: MUTED });
    canvas.y += 13;
    canvas.line(PAGE.margin, canvas.y - 2.5, PAGE.width - PAGE.margin, canvas.y - 2.5, RULE, 0.3);
  }
}

function drawConfidence(canvas: Canvas, model: ReportModel): void {
  const lang = model.language;
  canvas.heading(t(lang, 'report.confidence.title'), 15, 80);
  const c = model.confidence;
  if (!c) {
    canvas.paragraph(t(lang, 'report.confidence.none'), { color: MUTED });
    return;
  }
  const average = formatPercent(lang, c.average_pct);
  const error = t(lang, 'report.confidence.price_error_value', {
    average: c.at_least ? t(lang, 'report.confidence.at_least', { value: average }) : average,
    deviation: formatPercent(lang, c.standard_deviation_pct),
  });
  keyValues(
    canvas,
    [
      [t(lang, 'report.confidence.score'), formatNumber(lang, c.score, 2)],
      [t(lang, 'report.confidence.band'), c.quality_label],
      [t(lang, 'report.confidence.price_error'), error],
    ],
    PAGE.margin,
    canvas.y,
    CONTENT_WIDTH,
  );
  canvas.y += 4;
  canvas.paragraph(t(lang, 'report.confidence.explanation'), { size: 8.5, color: MUTED });
  for (const sentence of qualitySentences(lang, model).slice(1)) canvas.paragraph(sentence, { size: 8.5 });
}
