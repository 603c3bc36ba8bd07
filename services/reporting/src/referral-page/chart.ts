import type { ReportModel } from '../report-model.ts';
import { tn } from '../i18n/index.ts';
import { compactMoney, componentName, money, number } from './format.ts';
import { labelColours } from '../label-colours.ts';
import { term } from '../i18n/terms.ts';
import { esc } from './html.ts';
import { pageText } from './strings.ts';

/** Drawing units of the chart's viewBox; the SVG scales to its box, so these fix proportions, not pixels. */
const WIDTH = 400;
const HEIGHT = 260;
const PAD = { right: 66, top: 14, bottom: 30 };
/** Ladder badges grow with the longest label (`A++++` on the Dutch scale); about 8 units per bold character. */
const badgeWidth = (labels: readonly string[]) => Math.max(30, 10 + 8 * Math.max(0, ...labels.map((l) => l.length)));

/**
 * The chart as inline SVG: the scale's label ladder on the left (best on top) with the label after
 * each step as a dot, and the cumulative net cost as a bar per step against the right axis. One
 * `step-mark` group per step carries both, with a tooltip naming the step.
 */
export function renderChart(model: ReportModel): string {
  const language = model.language;
  const labels = model.labels;
  const steps = model.steps;
  const fillOf = (label: string | null) => labelColours(model.scale, label).fill;
  const badgeW = badgeWidth(labels);
  const left = badgeW + 10;
  const plotW = WIDTH - left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const bottom = PAD.top + plotH;
  const slots = steps.length + 1;
  const slotW = plotW / slots;
  const xOf = (slot: number) => left + (slot + 0.5) * slotW;
  const rowH = labels.length > 0 ? plotH / labels.length : plotH;
  const yOfLabel = (label: string | null) => {
    const index = label === null ? -1 : labels.indexOf(label);
    return index < 0 ? null : PAD.top + (index + 0.5) * rowH;
  };
  /** The EPC score beside a dot: above it, below where the dot sits on the top band. */
  const scoreText = (x: number, y: number, score: number | null) =>
    score === null
      ? ''
      : `<text class="score-value" x="${x.toFixed(1)}" y="${(y < PAD.top + rowH ? y + 17 : y - 9).toFixed(1)}" text-anchor="middle">${esc(number(language, score))}</text>`;
  const maxCost = Math.max(0, ...steps.map((s) => s.cumulative_net_cost));
  const costScale = maxCost > 0 ? plotH / maxCost : 0;
  const barW = Math.min(slotW * 0.55, 36);

  const ladder = labels
    .map((label, i) => {
      const y = PAD.top + (i + 0.5) * rowH;
      // Each label's band across the plot, in a pale tint of its colour.
      return (
        `<rect class="band" x="${left}" y="${(y - rowH / 2).toFixed(1)}" width="${plotW.toFixed(1)}" height="${rowH.toFixed(1)}" fill="${fillOf(label)}" fill-opacity="0.16"/>` +
        `<line class="grid" x1="${left}" x2="${WIDTH - PAD.right}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}"/>` +
        `<rect x="4" y="${(y - 8).toFixed(1)}" width="${badgeW}" height="16" rx="3" fill="${fillOf(label)}"/>` +
        `<text class="ladder" x="${4 + badgeW / 2}" y="${(y + 4).toFixed(1)}" text-anchor="middle" fill="${labelColours(model.scale, label).text}">${esc(label)}</text>`
      );
    })
    .join('');

  const ticks = (maxCost > 0 ? [0, maxCost / 2, maxCost] : [0])
    .map((value) => {
      const y = bottom - value * costScale;
      return `<text class="tick" x="${WIDTH - PAD.right + 6}" y="${(y + 4).toFixed(1)}">${esc(compactMoney(language, value))}</text>`;
    })
    .join('');

  const points: Array<[number, number]> = [];
  const startY = yOfLabel(model.current.epc_label);
  if (startY !== null) points.push([xOf(0), startY]);
  const marks = steps
    .map((step, i) => {
      const x = xOf(i + 1);
      const barH = step.cumulative_net_cost * costScale;
      const y = yOfLabel(step.epc_label_after);
      if (y !== null) points.push([x, y]);
      const tooltip = `${step.order}. ${componentName(language, step.renovation_component_type)}: ${step.epc_label_after ?? term(language, 'label_unknown')}, ${money(language, step.cumulative_net_cost)}`;
      return (
        `<g class="step-mark" data-step="${esc(step.order)}"><title>${esc(tooltip)}</title>` +
        `<rect class="bar" x="${(x - barW / 2).toFixed(1)}" y="${(bottom - barH).toFixed(1)}" width="${barW.toFixed(1)}" height="${Math.max(barH, 1).toFixed(1)}"/>` +
        (y !== null
          ? `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="6" fill="${fillOf(step.epc_label_after)}"/>${scoreText(x, y, step.epc_score_after)}`
          : '') +
        `<text class="axis" x="${x.toFixed(1)}" y="${bottom + 18}" text-anchor="middle">${esc(step.order)}</text></g>`
      );
    })
    .join('');
  const start =
    startY === null
      ? ''
      : `<circle cx="${xOf(0).toFixed(1)}" cy="${startY.toFixed(1)}" r="6" fill="${fillOf(model.current.epc_label)}"/>${scoreText(xOf(0), startY, model.current.epc_score)}`;
  const line =
    points.length > 1 ? `<polyline class="path" points="${points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')}"/>` : '';

  const title = pageText(language, 'chart_title');
  const desc = tn(language, 'page.chart_desc', steps.length, {
    from: model.current.epc_label ?? term(language, 'label_unknown'),
    to: model.reachable.epc_label ?? term(language, 'label_unknown'),
    cost: money(language, maxCost),
  });
  return (
    `<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="chart-title">${esc(title)}</title><desc id="chart-desc">${esc(desc)}</desc>` +
    ladder +
    `<line class="axis-line" x1="${left}" x2="${WIDTH - PAD.right}" y1="${bottom}" y2="${bottom}"/>` +
    `<line class="axis-line" x1="${WIDTH - PAD.right}" x2="${WIDTH - PAD.right}" y1="${PAD.top}" y2="${bottom}"/>` +
    // The line first: the bars are translucent and the dots sit on top of it.
    ticks +
    line +
    marks +
    start +
    `<text class="axis" x="${xOf(0).toFixed(1)}" y="${bottom + 18}" text-anchor="middle">${esc(pageText(language, 'chart_start'))}</text>` +
    `</svg>`
  );
}
