import { labelColours } from '../label-colours.ts';
import type { ReportModel } from '../report-model.ts';

/** Text and attribute values: every character that could end a text run or an attribute is an entity. */
export const esc = (value: string | number) => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A label's badge colours as an inline style: the scale's colours the PDF report uses too (../label-colours.ts). */
export function labelStyle(model: Pick<ReportModel, 'scale'>, label: string | null): string {
  const { fill, text } = labelColours(model.scale, label);
  return `background:${fill};color:${text}`;
}
