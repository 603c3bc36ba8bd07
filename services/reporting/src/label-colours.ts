import type { EnergyEfficiencyType } from '@renopath/contracts';
import coloursJson from '../data/label-colours.json' with { type: 'json' };

const scales = coloursJson.scales as Record<string, Record<string, string>>;
const dark = new Set(coloursJson.text_on_dark.map((c) => c.toLowerCase()));

/**
 * A label's colours on its scale (data/label-colours.json, with its source): the fill and the text
 * that reads on it; grey for an unknown label or none. The one scale of colours the PDF report and
 * the public page both draw with, as hex strings.
 */
export function labelColours(scale: EnergyEfficiencyType, label: string | null): { fill: string; text: string } {
  const fill = (label !== null ? scales[scale]?.[label] : undefined) ?? coloursJson.unknown;
  return { fill, text: dark.has(fill.toLowerCase()) || fill === coloursJson.unknown ? '#ffffff' : '#1f2328' };
}
