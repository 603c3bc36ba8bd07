import type { EstateFormat, Region } from '@renopath/contracts';
import { calibration, type CertificateCorrection } from './data.ts';

/**
 * The few global parameters fitted on the calibration cases (data/calibration.json). The calibration
 * harness passes alternatives to cross-validate them; everything else uses the recorded values.
 */
export interface ModelParameters {
  certificateCorrection: CertificateCorrection;
}

export const DEFAULT_PARAMETERS: ModelParameters = {
  certificateCorrection: calibration.certificate_correction,
};

/** The certificate-score multiplier of a home (1 outside the corrected regions). */
export function certificateFactor(
  params: ModelParameters, region: Region, yearBuilt: number, format: EstateFormat, area: number, apartment: boolean,
): number {
  const c = params.certificateCorrection;
  // Fitted on houses only: apartments keep the physical score.
  if (apartment || !c.regions.includes(region)) return 1;
  const [lo, hi] = c.area_range_m2;
  const clamped = Math.min(hi, Math.max(lo, area));
  const band = c.age_bands.find((b) => yearBuilt <= b.to_year) ?? c.age_bands[c.age_bands.length - 1]!;
  return Math.exp(c.log_scale + c.size_exponent * Math.log(clamped / c.reference_area_m2) + band.log_factor + c.formats[format]);
}
