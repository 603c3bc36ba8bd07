import type { EnergyEfficiencyType } from '@renopath/contracts';
import type { RGB } from 'pdf-lib';
import { labelColours } from '../label-colours.ts';
import { hex } from './layout.ts';

/** A label's fill and text colour for pdf-lib, from the scale the page uses too (../label-colours.ts). */
export function labelColour(scale: EnergyEfficiencyType, label: string | null): { fill: RGB; text: RGB } {
  const { fill, text } = labelColours(scale, label);
  return { fill: hex(fill), text: hex(text) };
}
