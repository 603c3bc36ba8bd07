import type {
  AtticUsage,
  BasementType,
  Country,
  DataSource,
  EnergyEfficiencyType,
  EstateFormat,
  GlazingType,
  HeatEmitterType,
  HeatingDevice,
  HeatingType,
  InstallationAge,
  InsulationLevel,
  QualityLabel,
  Region,
  RoofType,
  SanitaryHeatingDevice,
  VentilationType,
} from '@renopath/contracts';

/** Opaque and transparent envelope elements of the heat balance. */
export type Element = 'roof' | 'wall' | 'floor' | 'window' | 'door';
export const ELEMENTS: readonly Element[] = ['roof', 'wall', 'floor', 'window', 'door'];

/** Insulated opaque elements that carry an insulation level. */
export type OpaqueElement = 'roof' | 'wall' | 'floor';

export type Orientation = 'E' | 'S' | 'W' | 'N';
export const ORIENTATIONS: readonly Orientation[] = ['E', 'S', 'W', 'N'];

/** Delivered-energy carriers (metered at the home's boundary). */
export type Carrier = 'GAS' | 'FUEL_OIL' | 'PROPANE' | 'ELECTRICITY' | 'PELLET_FUEL' | 'WOOD' | 'DISTRICT_HEATING';
export const CARRIERS: readonly Carrier[] = ['GAS', 'FUEL_OIL', 'PROPANE', 'ELECTRICITY', 'PELLET_FUEL', 'WOOD', 'DISTRICT_HEATING'];
export type PerCarrier = Record<Carrier, number>;

export type ScaleName = EnergyEfficiencyType;

export interface DataQualityFlag {
  field: string;
  code: string;
  message: string;
}

export interface ExpectedPriceError {
  average_pct: number;
  standard_deviation_pct: number;
  /** true when the band's figures are lower bounds (below 0.60: "above 20 %"). */
  at_least: boolean;
}

/** The expected error of the score at a confidence level, measured by cross-validation on certificates. */
export interface ExpectedScoreError {
  /** Median absolute relative error of the score. */
  median_pct: number;
  /** Share of homes whose label is within one class. */
  within_one_label: number;
  /** true when no certificate measured this level: the figures are bounds from the nearest measured one. */
  extrapolated: boolean;
}

/** What the stock (data/stock.json) assumed for the parts the client did not describe. */
export interface StockInfo {
  /** The stock level r (0 = the construction period's original state). */
  level: number;
  /** Expected kind of an undescribed boiler (1 condensing, 0 non-condensing, below 0 the certificate's old-boiler default); null when described. */
  condensing_share: number | null;
  /** Expected share of heat from a heat pump when no heating system was described. */
  heat_pump_share: number;
  /** Expected PV peak power when panels were not mentioned (kWp). */
  expected_pv_kwp: number;
  /** Expected share of balanced ventilation with heat recovery when no ventilation was described. */
  heat_recovery_share: number;
}

export interface EnvelopeAreas {
  roof_m2: number;
  wall_m2: number;
  window_m2: number;
  door_m2: number;
  floor_m2: number;
  total_m2: number;
}

export interface Geometry {
  habitable_space_m2: number;
  floors: number;
  footprint_m2: number;
  volume_m3: number;
  /** How the areas were found: given surfaces, width/depth/height, or the typology's proportions. */
  method: 'DIMENSIONS' | 'TYPOLOGY' | 'APARTMENT';
  envelope: EnvelopeAreas;
  exposed: { roof: boolean; floor: boolean; facades: number };
}

export interface HeatBalance {
  set_point_c: number;
  degree_days_kd: number;
  reduction_factor: number;
  transmission_kwh: number;
  ventilation_kwh: number;
  solar_gains_kwh: number;
  internal_gains_kwh: number;
  gain_utilisation: number;
  heating_need_kwh: number;
  heating_need_kwh_per_m2: number;
}

export interface HeatLoss {
  /** Transmission heat-loss coefficient incl. thermal bridges (W/K). */
  h_transmission_w_per_k: number;
  h_ventilation_w_per_k: number;
  h_thermal_bridges_w_per_k: number;
  by_element_w_per_k: Record<Element, number>;
  u_values_w_per_m2k: Record<Element, number>;
}

export interface CalibrationInfo {
  /** The score the client or EPC gave; the current score equals it. */
  given_score: number;
  /** The model's own score before calibration. */
  modelled_score: number;
  mode: 'RATIO' | 'SHIFT';
  /** RATIO: factor on the modelled consumption; SHIFT: points added to the score. */
  factor: number;
  shift: number;
}

export interface Evaluation {
  region: Region;
  country: Country;
  energy_efficiency_type: EnergyEfficiencyType;
  epc_score: number;
  epc_label: string;
  /** Score of the model before calibration to a given score (equal to epc_score without one). */
  modelled_epc_score: number;
  calibration: CalibrationInfo | null;
  confidence_score: number;
  quality_label: QualityLabel;
  expected_price_error: ExpectedPriceError;
  expected_score_error: ExpectedScoreError;
  data_quality: { sources: Record<string, DataSource>; flags: DataQualityFlag[] };
  /** Every model input, given or filled from the typology (see data_quality.sources). */
  assumed: AssumedProperty;
  typology: { period: string; archetypes: string[] };
  geometry: Geometry;
  heat_loss: HeatLoss;
  /** Design heat load at the national design outdoor temperature (kW): what a heat pump is sized on. */
  design_heat_load_kw: number;
  /** Seasonal performance factor each heat pump would reach on this home's emitters. */
  heat_pump_spf: Record<'AIR_WATER_HEAT_PUMP' | 'GEOTHERMAL_HEAT_PUMP' | 'AIR_AIR_HEAT_PUMP' | 'HYBRID_HEAT_PUMP', number>;
  stock: StockInfo;
  /** Net space-heating need under TABULA boundary conditions (20 C, reduced heating), per m2 of habitable space. */
  heating_need_kwh_per_m2: number;
  heating_need_kwh_per_year: number;
  /** TABULA-condition balance (comparable to TABULA q_h_nd). */
  heat_balance: HeatBalance;
  /** Balance under the region's certificate boundary conditions; drives delivered energy and the score. */
  certificate_heat_balance: HeatBalance;
  hot_water_need_kwh_per_year: number;
  /** Delivered energy of the certificate's standard use: what the score is made of. */
  delivered_energy_kwh_per_year: PerCarrier;
  /** Delivered energy a household is expected to use (the prebound effect on space heating, data/factors.json expected_use): what the cost is of. */
  expected_use_kwh_per_year: PerCarrier;
  pv_production_kwh_per_year: number;
  primary_energy_by_carrier_kwh_per_year: PerCarrier;
  primary_energy_kwh_per_year: number;
  co2_kg_per_year: number;
  /** The yearly cost of the expected use at current prices (data/factors.json prices_eur_per_kwh). */
  energy_cost_eur_per_year: number;
  versions: { model: string };
}

/** The property with every model input resolved (given or default). */
export interface AssumedProperty {
  year_built: number;
  estate_format: EstateFormat;
  habitable_space_m2: number;
  zip_code: string;
  country: Country;
  estate_type: string;
  year_renovated: number | null;
  number_of_floors: number | null;
  building_width: number | null;
  building_depth: number | null;
  cornice_height: number | null;
  energy_efficiency_score: number | null;
  roof_type: RoofType;
  /** Insulation of the inclined part of the roof (null: the roof has none). */
  inclined_roof_insulation_type: InsulationLevel | null;
  /** Insulation of the flat part of the roof (null: the roof has none). */
  flat_roof_insulation_type: InsulationLevel | null;
  /** Share of the roof area that is flat (0 INCLINED, 1 FLAT, between for MIXED). */
  flat_roof_share: number;
  attic_usage: AtticUsage | null;
  outer_wall_insulation_type: InsulationLevel;
  has_cavity_wall_insulation: boolean;
  window_glazing_type: GlazingType;
  basement_type: BasementType;
  /** Share of the ground floor above a basement or crawl space (the rest lies on the ground). */
  basement_share: number;
  solid_ground_floor_insulation_type: InsulationLevel;
  floor_above_basement_insulation_type: InsulationLevel;
  ventilation_type: VentilationType;
  heating_type: HeatingType;
  heating_device: HeatingDevice;
  installation_age: InstallationAge | null;
  sanitary_heating_device: SanitaryHeatingDevice;
  solar_panels_kwp: number;
  has_solar_boiler: boolean;
  has_renewed_window_frames: boolean | null;
  air_tightness_v50: number | null;
  heat_emitter_type: HeatEmitterType | null;
}
