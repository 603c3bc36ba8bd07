import type { EnergyEfficiencyType } from '@renopath/contracts';
import type { RGB } from 'pdf-lib';
import coloursJson from '../../data/label-colours.json' with { type: 'json' };
import { hex } from './layout.ts';

const scales = coloursJson.scales as Record<string, Record<string, string>>;
const dark = new Set(coloursJson.text_on_dark.map((c) => c.toLowerCase()));

/** A label's fill on its scale (data/label-colours.json); grey for an unknown label or none. */
export function labelColour(scale: EnergyEfficiencyType, label: string | null): { fill: RGB; text: RGB } {
  const colour = (label !== null ? scales[scale]?.[label] : undefined) ?? coloursJson.unknown;
  return { fill: hex(colour), text: hex(dark.has(colour.toLowerCase()) || colour === coloursJson.unknown ? '#ffffff' : '#1f2328') };
}
