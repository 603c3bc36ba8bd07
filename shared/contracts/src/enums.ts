import { z } from 'zod';

/**
 * Enumerations shared by HTTP bodies, commands, events and the energy model. The values of
 * The interface come first in each list and are binding (clients are coded against them); values
 * after the `// extensions` marker go beyond it (docs/http-contract.md: an extension adds, never renames).
 */

export const Country = z.enum(['BE', 'NL']);
export const Region = z.enum(['FLANDERS', 'BRUSSELS', 'WALLONIA', 'NETHERLANDS']);
export const EnergyEfficiencyType = z.enum(['EPC_FLANDERS', 'EPC_BRUSSELS', 'EPC_WALLONIA', 'ENERGY_LABEL_NL']);
export const EstateFormat = z.enum(['OPEN', 'SEMI_OPEN', 'CLOSED']);
export const EstateType = z.enum(['HOUSE', 'VILLA', 'BUNGALOW', 'FARMHOUSE', 'APARTMENT', 'DUPLEX', 'PENTHOUSE', 'STUDIO', 'MIXED_USE']);
/**
 * Extension: the heritage protection of the home's street facade or of the building: a protected
 * facade, a protected townscape (the street's appearance), or a listed building (a monument). Protected
 * facades get interior insulation or none and wooden frames; the works need the permit the plan names.
 */
export const HeritageStatus = z.enum(['NONE', 'PROTECTED_FACADE', 'PROTECTED_TOWNSCAPE', 'LISTED']);
export type HeritageStatus = z.infer<typeof HeritageStatus>;
/** Extension: what the outer walls' outside face is made of (natural stone is never insulated from outside). */
export const FacadeMaterial = z.enum(['BRICK', 'STONE', 'RENDER', 'CONCRETE', 'TIMBER', 'OTHER']);
export type FacadeMaterial = z.infer<typeof FacadeMaterial>;
/** Extension: where a flat sits in its building: on the ground floor, between two flats, or under the roof. */
export const FloorPosition = z.enum(['GROUND', 'MIDDLE', 'TOP']);
export type FloorPosition = z.infer<typeof FloorPosition>;
export const InsulationLevel = z.enum(['NONE', 'LIGHT', 'MODERATE', 'STRONG']);
/** The trajectory request's `roof_type`: the home's roofs together (MIXED: inclined and flat parts). */
export const RoofType = z.enum(['INCLINED', 'FLAT', 'MIXED']);
/** What the space under an inclined roof is used for (trajectory request). */
export const AtticUsage = z.enum(['STORAGE', 'LIVING_SPACE', 'NOT_USED']);
/** Insulation of the floor above a basement (the interface lists no LIGHT level here; LIGHT is an extension). */
export const FloorAboveBasementInsulation = z.enum(['NONE', 'MODERATE', 'STRONG', /* extensions */ 'LIGHT']);
/** Clear height of the basement under the ground floor: decides whether its ceiling can be insulated from below. */
export const BasementCeilingHeight = z.enum(['HIGHER_THAN_120_CM', 'LOWER_THAN_120_CM']);
/** Width of the cavity of a cavity wall: 5 cm or more can be filled. */
export const CavityWallWidth = z.enum(['EQUAL_OR_MORE_THAN_5_CM', 'LESS_THAN_5_CM']);
/** Extension: what delivers the heat in the rooms; it decides a heat pump's flow temperature and so its efficiency. */
export const HeatEmitterType = z.enum(['RADIATORS', 'LOW_TEMPERATURE_RADIATORS', 'FLOOR_HEATING', 'AIR']);
/** Age band of the heating installation. */
export const InstallationAge = z.enum(['ZERO_TO_FIVE_YEARS_OLD', 'FIVE_TO_TEN_YEARS_OLD', 'OLDER_THAN_TEN_YEARS']);
export const GlazingType = z.enum(['SINGLE_GLAZING', 'DOUBLE_GLAZING', 'HR', 'TRIPLE_GLAZING']);
export const VentilationType = z.enum(['NONE', 'SYSTEM_A', 'SYSTEM_B', 'SYSTEM_C', 'SYSTEM_D']);
/**
 * What lies under the ground floor: no basement (a floor on the ground), a basement under all or part
 * of it, or not known. CRAWL_SPACE (extension): a shallow unheated void, insulated from below like a
 * basement ceiling when it is high enough.
 */
export const BasementType = z.enum(['NONE', 'FULL', 'PARTIAL', 'UNSPECIFIED', /* extensions */ 'CRAWL_SPACE']);
/** The kind of space heating, mostly by energy carrier (HEAT_PUMP: an electric heat pump). */
export const HeatingType = z.enum([
  'ELECTRIC',
  'FUEL_OIL',
  'GAS',
  'HEAT_PUMP',
  'PELLET_FUEL',
  'WOOD',
  'NONE',
  /* extensions */ 'PROPANE',
  'DISTRICT_HEATING',
]);
/** The space-heating generator. */
export const HeatingDevice = z.enum([
  'DIRECT_ACCUMULATION',
  'CONDENSING_BOILER',
  'NON_CONDENSING_BOILER',
  'STOVE',
  'AIR_AIR_HEAT_PUMP',
  'AIR_WATER_HEAT_PUMP',
  'GEOTHERMAL_HEAT_PUMP',
  // extensions
  'HYBRID_HEAT_PUMP',
  'DIRECT_ELECTRIC',
  'PELLET_BOILER',
  'DISTRICT_HEATING_SUBSTATION',
]);
/** The domestic hot-water generator; NOT_SEPARATED: the space-heating device also makes hot water. */
export const SanitaryHeatingDevice = z.enum([
  'GAS_BOILER',
  'FUEL_OIL_BOILER',
  'ELECTRIC_BOILER',
  'HEAT_PUMP_BOILER',
  'NOT_SEPARATED',
  'NONE',
]);
export const EcoFacility = z.enum([
  'SOLAR_PANELS',
  'SOLAR_BOILER',
  'HEAT_PUMP',
  'HOME_BATTERY',
  'RAINWATER_TANK',
  'VENTILATION_C',
  'VENTILATION_D',
  'GREEN_ROOF',
  'EV_CHARGER',
]);
/** Estate-only enumerations (docs/http-contract.md "Estates and their parts"). */
export const EstateStatus = z.enum(['DRAFT', 'FOR_SALE', 'UNDER_OPTION', 'SOLD', 'FOR_RENT', 'RENTED', 'OFF_MARKET']);
/** The type of one roof of an estate (a home with both has two roofs). */
export const EstateRoofType = z.enum(['INCLINED', 'FLAT']);
export const EstateFloorType = z.enum(['BASEMENT', 'GROUND_FLOOR', 'UPPER_FLOOR', 'ATTIC']);
export const EstateRoomType = z.enum([
  'LIVING_ROOM',
  'DINING_ROOM',
  'KITCHEN',
  'BEDROOM',
  'BATHROOM',
  'TOILET',
  'HALL',
  'OFFICE',
  'LAUNDRY',
  'STORAGE',
  'GARAGE',
  'CELLAR',
  'ATTIC_ROOM',
  'OTHER',
]);
export const EstateStaircaseType = z.enum(['STRAIGHT', 'QUARTER_TURN', 'HALF_TURN', 'SPIRAL']);
/** Which system an estate came from (docs/http-contract.md "Estates and their parts", extension on create). */
export const EstateProviderType = z.enum(['API', 'WHISE', 'SKARABEE', 'SWEEPBRIGHT', 'ZABUN', 'APIMO', 'OMNICASA', 'OTHER']);
/** Old-style names (docs/http-contract.md "The indication"): `window_type` has the glazing values, `ground_floor_type` says what the ground floor rests on. */
export const WindowType = GlazingType;
export const GroundFloorType = z.enum(['SOLID_GROUND_FLOOR', 'FLOOR_ABOVE_BASEMENT', 'FLOOR_ABOVE_CRAWL_SPACE']);
/** Where a model input came from (docs/domain.md "Confidence"). */
export const DataSource = z.enum(['INPUT', 'EPC_DOCUMENT', 'LIDAR', 'PROVIDER', 'MODEL']);
export const QualityLabel = z.enum(['A', 'B', 'C', 'D']);
/** Household income band of grant schemes (Flanders, Wallonia); MIDDLE is assumed when unknown. */
export const IncomeCategory = z.enum(['LOW', 'MIDDLE', 'HIGH']);

export type Country = z.infer<typeof Country>;
export type Region = z.infer<typeof Region>;
export type EnergyEfficiencyType = z.infer<typeof EnergyEfficiencyType>;
export type EstateFormat = z.infer<typeof EstateFormat>;
export type EstateType = z.infer<typeof EstateType>;
export type InsulationLevel = z.infer<typeof InsulationLevel>;
export type RoofType = z.infer<typeof RoofType>;
export type AtticUsage = z.infer<typeof AtticUsage>;
export type FloorAboveBasementInsulation = z.infer<typeof FloorAboveBasementInsulation>;
export type BasementCeilingHeight = z.infer<typeof BasementCeilingHeight>;
export type CavityWallWidth = z.infer<typeof CavityWallWidth>;
export type InstallationAge = z.infer<typeof InstallationAge>;
export type HeatEmitterType = z.infer<typeof HeatEmitterType>;
export type GlazingType = z.infer<typeof GlazingType>;
export type VentilationType = z.infer<typeof VentilationType>;
export type BasementType = z.infer<typeof BasementType>;
export type HeatingType = z.infer<typeof HeatingType>;
export type HeatingDevice = z.infer<typeof HeatingDevice>;
export type SanitaryHeatingDevice = z.infer<typeof SanitaryHeatingDevice>;
export type EcoFacility = z.infer<typeof EcoFacility>;
export type DataSource = z.infer<typeof DataSource>;
export type QualityLabel = z.infer<typeof QualityLabel>;
export type IncomeCategory = z.infer<typeof IncomeCategory>;
export type EstateStatus = z.infer<typeof EstateStatus>;
export type EstateRoofType = z.infer<typeof EstateRoofType>;
export type EstateFloorType = z.infer<typeof EstateFloorType>;
export type EstateRoomType = z.infer<typeof EstateRoomType>;
export type EstateStaircaseType = z.infer<typeof EstateStaircaseType>;
export type EstateProviderType = z.infer<typeof EstateProviderType>;
export type WindowType = z.infer<typeof WindowType>;
export type GroundFloorType = z.infer<typeof GroundFloorType>;
