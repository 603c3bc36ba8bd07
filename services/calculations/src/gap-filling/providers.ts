import type { Country, EnergyEfficiencyType, PropertyDescription } from '@renopath/contracts';

/**
 * Ports of the outside sources that fill gaps in a property description (docs/http-contract.md "What the
 * service does" 3): LiDAR geometry and an external energy-efficiency provider. An adapter never
 * throws: a failing or slow source answers UNAVAILABLE and the job goes on with the typology model.
 */

export type ProviderAnswer<T> =
  | { status: 'OK'; data: T }
  /** The source works but knows nothing about this home (no building at the address, no estimate). */
  | { status: 'NO_DATA'; reason: string }
  /** The source failed, was too slow, answered nonsense, or its circuit is open. */
  | { status: 'UNAVAILABLE'; reason: string };

export interface BuildingAddress {
  street: string;
  house_number: string;
  house_number_extra?: string;
  zip_code: string;
  place?: string;
  country: Country;
}

/** Measured from the LiDAR height model and the building footprint: metres and m2. */
export interface MeasuredGeometry {
  building_width: number;
  building_depth: number;
  /** 0 when the roof has no such part. */
  inclined_roof_pane_surface: number;
  flat_roof_pane_surface: number;
  cornice_height?: number;
}

export interface GeometryProvider {
  measure(address: BuildingAddress): Promise<ProviderAnswer<MeasuredGeometry>>;
}

export interface ScoreEstimate {
  energy_efficiency_score: number;
  /** The scale the score is on; it must be the home's region's. */
  energy_efficiency_type: EnergyEfficiencyType;
}

/** The provider's view of a renovation: the score of the home as it is and as it would be. */
export interface ImpactEstimate {
  score_before: number;
  score_after: number;
  energy_efficiency_type: EnergyEfficiencyType;
}

export interface EnergyEfficiencyProvider {
  /** The current score of the described home, on its region's scale. */
  estimateScore(property: PropertyDescription): Promise<ProviderAnswer<ScoreEstimate>>;
  /**
   * The score before and after a set of measures, the measures given as the home after them (the same
   * fields, as the catalogue's effects patch them): a cross-check of the model's impact, never its input.
   */
  estimateImpact(property: PropertyDescription, renovated: PropertyDescription): Promise<ProviderAnswer<ImpactEstimate>>;
}
