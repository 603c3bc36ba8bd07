import type { RGB } from 'pdf-lib';
import { phaseName, stepMeets } from '../i18n/conditions-text.ts';
import { componentName, formatMoney, formatNumber, t, tn } from '../i18n/index.ts';
import type { ReportItem, ReportModel } from '../report-model.ts';
import { labelColour } from './label-colours.ts';
import { ACCENT, CONTENT_WIDTH, INK, MUTED, PAGE, RULE, SHADE, type Canvas } from './layout.ts';

interface Column {
  key: string;
  width: number;
  align: 'left' | 'right' | 'center';
}

/** Widths as shares of the content width: the work column takes what the figures leave. */
const COLUMNS: Column[] = [
  { key: 'step', width: 0.05, align: 'left' },
  { key: 'work', width: 0.27, align: 'left' },
  { key: 'phase', width: 0.13, align: 'left' },
  { key: 'label', width: 0.065, align: 'center' },
  { key: 'cost', width: 0.1, align: 'right' },
  { key: 'vat', width: 0.09, align: 'right' },
  { key: 'grant', width: 0.095, align: 'right' },
  { key: 'net', width: 0.1, align: 'right' },
  { key: 'cumulative', width: 0.1, align: 'right' },
];
const PAD = 3;

type Cell = string | { label: string | null };

/** The steps with their items and supporting works: cost, VAT, grant and net per line, totals last. */
export function drawStepsTable(canvas: Canvas, model: ReportModel): void {
  const lang = model.language;
  canvas.heading(t(lang, 'report.steps.title'));
  if (model.steps.length === 0) {
    canvas.paragraph(t(lang, 'report.steps.none'), { color: MUTED });
    return;
  }
  const xs = columnStarts();
  const money = (v: number) => formatMoney(lang, v);

  const header = () => {
    const height = 16;
    canvas.rect(PAGE.margin, canvas.y, CONTENT_WIDTH, height, SHADE);
    COLUMNS.forEach((c, i) =>
      cell(canvas, t(lang, `report.steps.col.${c.key}`), c, xs[i]!, canvas.y + 4, { size: 7.5, bold: true, color: INK }, model),
    );
    canvas.y += height + 2;
  };

  const row = (cells: Cell[], style: { size: number; bold?: boolean; color?: RGB }, indent = 0, shade = false) => {
    const workWidth = COLUMNS[1]!.width * CONTENT_WIDTH - 2 * PAD - indent;
    const lines = canvas.wrap(cells[1] as string, workWidth, style, 4);
    // The phase wraps in its own narrow column, in the row's style but never bold.
    const phaseStyle = { ...style, size: Math.min(style.size, 7), bold: false, color: MUTED };
    const phaseLines = cells[2] ? canvas.wrap(cells[2] as string, COLUMNS[2]!.width * CONTENT_WIDTH - 2 * PAD, phaseStyle, 3) : [];
    const height = Math.max(1, lines.length, phaseLines.length) * style.size * 1.3 + 5;
    if (canvas.y + height > canvas.bottom) {
      canvas.newPage();
      header();
    }
    if (shade) canvas.rect(PAGE.margin, canvas.y, CONTENT_WIDTH, height, SHADE);
    const top = canvas.y + 3;
    COLUMNS.forEach((c, i) => {
      if (i === 1) {
        lines.forEach((line, n) => canvas.text(line, xs[1]! + PAD + indent, top + n * style.size * 1.3, style));
      } else if (i === 2) {
        phaseLines.forEach((line, n) => canvas.text(line, xs[2]! + PAD, top + n * style.size * 1.3, phaseStyle));
      } else {
        cell(canvas, cells[i]!, c, xs[i]!, top, style, model);
      }
    });
    canvas.y += height;
  };

  header();
  for (const step of model.steps) {
    canvas.line(PAGE.margin, canvas.y, PAGE.width - PAGE.margin, canvas.y, RULE, 0.5);
    row(stepCells(lang, step, money), { size: 8, bold: true });
    const meets = stepMeets(lang, model, step.order);
    if (meets) row(['', meets, '', '', '', '', '', '', ''], { size: 7.5, bold: true, color: ACCENT }, 8);
    for (const item of step.items) {
      row(
        [
          '',
          itemText(model, item),
          '',
          '',
          money(item.estimated_cost),
          money(item.estimated_vat_cost),
          money(item.subsidy_amount),
          money(item.estimated_cost + item.estimated_vat_cost - item.subsidy_amount),
          '',
        ],
        { size: 7.5, color: item.derived ? MUTED : INK },
        8,
      );
    }
  }
  canvas.line(PAGE.margin, canvas.y, PAGE.width - PAGE.margin, canvas.y, INK, 1);
  const totals = model.totals;
  row(
    [
      '',
      t(lang, 'report.steps.total'),
      '',
      '',
      money(totals.estimated_cost),
      money(totals.estimated_vat_cost),
      money(totals.subsidy_amount),
      money(totals.net_cost),
      '',
    ],
    { size: 8, bold: true },
    0,
    true,
  );
  canvas.y += 6;
  canvas.paragraph(t(lang, 'report.steps.note'), { size: 7.5, color: MUTED });
}

/** Where each column starts on the page. */
function columnStarts(): number[] {
  const xs: number[] = [];
  let x = PAGE.margin;
  for (const c of COLUMNS) {
    xs.push(x);
    x += c.width * CONTENT_WIDTH;
  }
  return xs;
}

function stepCells(lang: ReportModel['language'], step: ReportModel['steps'][number], money: (v: number) => string): Cell[] {
  return [
    String(step.order),
    componentName(lang, step.renovation_component_type),
    phaseName(lang, step.phase),
    { label: step.epc_label_after },
    money(step.estimated_cost),
    money(step.estimated_vat_cost),
    money(step.subsidy_amount),
    money(step.net_cost),
    money(step.cumulative_net_cost),
  ];
}

function itemText(model: ReportModel, item: ReportItem): string {
  const lang = model.language;
  const quantity =
    item.unit === 'lump_sum'
      ? t(lang, 'report.units.lump_sum')
      : item.unit === 'piece'
        ? tn(lang, 'report.quantity.piece', item.quantity)
        : `${formatNumber(lang, item.quantity, 1)} ${t(lang, `report.units.${item.unit}`)}`;
  const derived = item.derived ? ` (${t(lang, 'report.steps.derived')})` : '';
  return `${componentName(lang, item.renovation_component_type)}: ${quantity}${derived}`;
}

function cell(
  canvas: Canvas,
  value: Cell,
  column: Column,
  x: number,
  top: number,
  style: { size: number; bold?: boolean; color?: RGB },
  model: ReportModel,
): void {
  const width = column.width * CONTENT_WIDTH;
  if (typeof value !== 'string') {
    const label = value.label ?? '?';
    const colour = labelColour(model.scale, value.label);
    const w = Math.max(22, canvas.width(label, { size: 7.5, bold: true }) + 8);
    canvas.rect(x + (width - w) / 2, top - 2, w, 11, colour.fill);
    canvas.textCentered(label, x + width / 2, top, { size: 7.5, bold: true, color: colour.text });
    return;
  }
  if (column.align === 'right') canvas.textRight(value, x + width - PAD, top, style);
  else if (column.align === 'center') canvas.textCentered(value, x + width / 2, top, style);
  else canvas.text(value, x + PAD, top, style);
}
