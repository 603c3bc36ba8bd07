import { evaluate } from '@renopath/energy';
import type { EnergyEfficiencyType, QualityLabel, Region } from '@renopath/contracts';
import { propertyFromEstate, type EstateData } from '@renopath/contracts';

/** What the energy model says about an estate's own data (docs/domain.md "Confidence"), before any trajectory. */
export interface Assessment {
  /** null when the five required fields are not all known: then nothing is estimated. */
  confidence_score: number | null;
  quality_label: QualityLabel;
  epc_label: string | null;
  epc_score: number | null;
  energy_efficiency_type: EnergyEfficiencyType | null;
  region: Region | null;
}

export const UNASSESSED: Assessment = Object.freeze({
  confidence_score: null,
  quality_label: 'D',
  epc_label: null,
  epc_score: null,
  energy_efficiency_type: null,
  region: null,
});

/** Runs the model on the estate's data; a description it cannot evaluate counts as unknown (label D). */
export function assessEstate(estate: EstateData): Assessment {
  const property = propertyFromEstate(estate);
  if (!property) return UNASSESSED;
  try {
    const { confidence_score, quality_label, epc_label, epc_score, energy_efficiency_type, region } = evaluate(property);
    return { confidence_score, quality_label, epc_label, epc_score, energy_efficiency_type, region };
  } catch {
    return UNASSESSED;
  }
}
