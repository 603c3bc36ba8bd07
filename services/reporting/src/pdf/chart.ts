import { rgb, type RGB } from 'pdf-lib';
import { formatMoney, formatNumber, t } from '../i18n/index.ts';
import type { ReportModel } from '../report-model.ts';
import { labelColour } from './label-colours.ts';
import { ACCENT, CONTENT_WIDTH, INK, MUTED, PAGE, RULE, type Canvas } from './layout.ts';

/**
 * The trajectory drawn as vectors, two panels sharing the step axis: the label ladder (the scale's
 * labels from best at the top to worst, a marker at the label after each step, "now" first) and the
 * cumulative net cost as bars.
 */
export function drawTrajectoryChart(canvas: Canvas, model: ReportModel): void {
  const lang = model.language;
  canvas.heading(t(lang, 'report.chart.title'), 15, 420);
  if (model.steps.length === 0) {
    canvas.paragraph(t(lang, 'report.chart.no_steps'), { color: MUTED });
    return;
  }
  const labels = model.labels.length > 0 ? model.labels : distinctLabels(model);
  const columns = [
    { name: t(lang, 'report.chart.start'), label: model.current.epc_label, score: model.current.epc_score, cost: 0 },
    ...model.steps.map((s) => ({ name: String(s.order), label: s.epc_label_after, score: s.epc_score_after, cost: s.cumulative_net_cost })),
  ];
  const axisWidth = 64;
  const plotLeft = PAGE.margin + axisWidth;
  const plotWidth = CONTENT_WIDTH - axisWidth;
  const columnWidth = plotWidth / columns.length;
  const centre = (i: number) => plotLeft + columnWidth * (i + 0.5);

  // Panel 1: the label ladder.
  canvas.text(t(lang, 'report.chart.labels_title'), PAGE.margin, canvas.y, { size: 10, bold: true });
  canvas.y += 18;
  const rowHeight = Math.max(11, Math.min(24, 250 / Math.max(1, labels.length)));
  const ladderTop = canvas.y;
  labels.forEach((label, row) => {
    const top = ladderTop + row * rowHeight;
    const colour = labelColour(model.scale, label);
    canvas.rect(PAGE.margin, top + 1, axisWidth - 12, rowHeight - 2, colour.fill);
    canvas.textCentered(label, PAGE.margin + (axisWidth - 12) / 2, top + (rowHeight - Math.min(9, rowHeight - 3)) / 2, {
      size: Math.min(9, rowHeight - 3),
      bold: true,
      color: colour.text,
    });
    // Each label's band across the plot, in a pale tint of its colour.
    canvas.rect(plotLeft, top, plotWidth, rowHeight, tint(colour.fill, 0.18));
  });
  const ladderHeight = labels.length * rowHeight;
  canvas.rect(plotLeft, ladderTop, plotWidth, ladderHeight, undefined, RULE);
  const rowOf = (label: string | null) => (label === null ? -1 : labels.indexOf(label));
  const markerTop = (row: number) => ladderTop + row * rowHeight + rowHeight / 2;
  // The line joins consecutive steps whose label is known; an unplaced step leaves a gap.
  for (let i = 1; i < columns.length; i++) {
    const a = rowOf(columns[i - 1]!.label);
    const b = rowOf(columns[i]!.label);
    if (a >= 0 && b >= 0) canvas.line(centre(i - 1), markerTop(a), centre(i), markerTop(b), ACCENT, 1.5);
  }
  const radius = Math.min(rowHeight / 2 - 1, columnWidth / 2 - 2, 10);
  columns.forEach((column, i) => {
    const row = rowOf(column.label);
    if (row < 0) {
      canvas.textCentered('?', centre(i), ladderTop + ladderHeight - rowHeight, { size: 9, color: MUTED });
      return;
    }
    const colour = labelColour(model.scale, column.label);
    canvas.circle(centre(i), markerTop(row), radius, colour.fill, ACCENT);
    if (column.score !== null) {
      // The score beside the marker, above it unless the marker sits on the top band.
      const above = row > 0 || rowHeight >= 20;
      const y = above ? markerTop(row) - radius - 9 : markerTop(row) + radius + 2;
      canvas.textCentered(formatNumber(lang, column.score), centre(i), y, { size: 6.5, bold: true, color: INK });
    }
  });
  canvas.y = ladderTop + ladderHeight + 4;
  stepAxis(
    canvas,
    columns.map((c) => c.name),
    centre,
  );
  canvas.paragraph(t(lang, 'report.chart.bands'), { size: 7.5, color: MUTED });
  canvas.y += 14;

  drawCostPanel(canvas, lang, columns, { plotLeft, plotWidth, columnWidth, centre });
}

interface Plot {
  plotLeft: number;
  plotWidth: number;
  columnWidth: number;
  centre: (i: number) => number;
}

/** Panel 2: cumulative net cost, bars on a money axis with rounded ticks. */
function drawCostPanel(canvas: Canvas, lang: ReportModel['language'], columns: { name: string; cost: number }[], plot: Plot): void {
  const { plotLeft, plotWidth, columnWidth, centre } = plot;
  canvas.text(t(lang, 'report.chart.cost_title'), PAGE.margin, canvas.y, { size: 10, bold: true });
  canvas.y += 18;
  const panelTop = canvas.y;
  const panelHeight = 200;
  const costs = columns.map((c) => c.cost);
  const max = Math.max(0, ...costs);
  const min = Math.min(0, ...costs);
  const ticks = niceTicks(min, max, 5);
  const lo = ticks[0]!;
  const hi = ticks[ticks.length - 1]!;
  const yOf = (v: number) => panelTop + panelHeight - ((v - lo) / (hi - lo || 1)) * panelHeight;
  for (const tick of ticks) {
    canvas.line(plotLeft, yOf(tick), plotLeft + plotWidth, yOf(tick), RULE, 0.5);
    canvas.textRight(formatMoney(lang, tick), plotLeft - 6, yOf(tick) - 3.5, { size: 7, color: MUTED });
  }
  const barWidth = Math.min(28, columnWidth * 0.6);
  costs.forEach((cost, i) => {
    const top = Math.min(yOf(cost), yOf(0));
    const height = Math.abs(yOf(cost) - yOf(0));
    if (height > 0) canvas.rect(centre(i) - barWidth / 2, top, barWidth, height, ACCENT);
  });
  canvas.line(plotLeft, yOf(0), plotLeft + plotWidth, yOf(0), MUTED, 0.75);
  const last = costs.length - 1;
  canvas.textCentered(formatMoney(lang, costs[last]!), Math.min(centre(last), PAGE.width - PAGE.margin - 30), yOf(costs[last]!) - 11, {
    size: 7.5,
    bold: true,
    color: ACCENT,
  });
  canvas.y = panelTop + panelHeight + 4;
  stepAxis(
    canvas,
    columns.map((c) => c.name),
    centre,
  );
  canvas.y += 20;
}

function stepAxis(canvas: Canvas, names: string[], centre: (i: number) => number): void {
  names.forEach((name, i) => canvas.textCentered(name, centre(i), canvas.y, { size: 8, color: MUTED }));
  canvas.y += 12;
}

function distinctLabels(model: ReportModel): string[] {
  const seen = [model.current.epc_label, ...model.steps.map((s) => s.epc_label_after), model.reachable.epc_label];
  return [...new Set(seen.filter((l): l is string => l !== null))];
}

/** Round tick values (1, 2 or 5 times a power of ten) covering [min, max]. */
export function niceTicks(min: number, max: number, count: number): number[] {
  if (max === min) return [min, min + 1];
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let v = Math.floor(min / step) * step; v < max + step; v += step) {
    ticks.push(v);
    if (v >= max) break;
  }
  return ticks;
}

/** A colour mixed with white: `share` of the colour, the rest white. */
function tint(colour: RGB, share: number): RGB {
  const c = colour as unknown as { red: number; green: number; blue: number };
  const mix = (v: number) => 1 - share * (1 - v);
  return rgb(mix(c.red), mix(c.green), mix(c.blue));
}
