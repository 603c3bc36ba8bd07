import { z } from 'zod';

/** Enumerations shared by HTTP bodies, commands, events and the energy model (API.md 4.3, 5.1). */

export const Country = z.enum(['BE', 'NL']);
export const Region = z.enum(['FLANDERS', 'BRUSSELS', 'WALLONIA', 'NETHERLANDS']);
export const EnergyEfficiencyType = z.enum(['EPC_FLANDERS', 'EPC_BRUSSELS', 'EPC_WALLONIA', 'ENERGY_LABEL_NL']);
export const EstateFormat = z.enum(['OPEN', 'SEMI_OPEN', 'CLOSED']);
export const EstateType = z.enum(['HOUSE', 'VILLA', 'BUNGALOW', 'FARMHOUSE', 'APARTMENT', 'DUPLEX', 'PENTHOUSE', 'STUDIO', 'MIXED_USE']);
export const InsulationLevel = z.enum(['NONE', 'LIGHT', 'MODERATE', 'STRONG']);
export const RoofType = z.enum(['INCLINED', 'FLAT']);
export const GlazingType = z.enum(['SINGLE_GLAZING', 'DOUBLE_GLAZING', 'HR', 'TRIPLE_GLAZING']);
export const VentilationType = z.enum(['NONE', 'SYSTEM_A', 'SYSTEM_B', 'SYSTEM_C', 'SYSTEM_D']);
/** Where the home stands on the ground: no basement (solid floor on the ground), crawl space, (un)heated cellar. */
export const BasementType = z.enum(['NONE', 'CRAWL_SPACE', 'UNHEATED', 'HEATED']);
/** The energy carrier of space heating. */
export const HeatingType = z.enum(['NATURAL_GAS', 'FUEL_OIL', 'PROPANE', 'ELECTRIC', 'WOOD_PELLETS', 'WOOD', 'DISTRICT_HEATING', 'NONE']);
/** The space-heating generator. Heat pumps run on ELECTRIC (a hybrid on ELECTRIC or NATURAL_GAS). */
export const HeatingDevice = z.enum([
  'NON_CONDENSING_BOILER',
  'CONDENSING_BOILER',
  'HEAT_PUMP_AIR_WATER',
  'HEAT_PUMP_GEOTHERMAL',
  'HEAT_PUMP_AIR_AIR',
  'HEAT_PUMP_HYBRID',
  'DIRECT_ELECTRIC',
  'DIRECT_ACCUMULATION',
  'STOVE',
  'PELLET_BOILER',
  'DISTRICT_HEATING_SUBSTATION',
]);
/** The domestic hot-water generator. */
export const SanitaryHeatingDevice = z.enum([
  'SAME_AS_HEATING',
  'GAS_INSTANTANEOUS',
  'ELECTRIC_BOILER',
  'HEAT_PUMP_BOILER',
  'SOLAR_BOILER',
]);
export const EcoFacility = z.enum(['SOLAR_PANELS', 'SOLAR_BOILER', 'HEAT_PUMP', 'HOME_BATTERY', 'RAINWATER_TANK', 'VENTILATION_C', 'VENTILATION_D', 'GREEN_ROOF', 'EV_CHARGER']);
/** Estate-only enumerations (API.md 4.3). */
export const EstateStatus = z.enum(['DRAFT', 'FOR_SALE', 'UNDER_OPTION', 'SOLD', 'FOR_RENT', 'RENTED', 'OFF_MARKET']);
/** The estate's roof type is the trajectory request's `roof_type` under its estate name. */
export const EstateRoofType = RoofType;
export const EstateFloorType = z.enum(['BASEMENT', 'GROUND_FLOOR', 'UPPER_FLOOR', 'ATTIC']);
export const EstateRoomType = z.enum([
  'LIVING_ROOM', 'DINING_ROOM', 'KITCHEN', 'BEDROOM', 'BATHROOM', 'TOILET', 'HALL', 'OFFICE', 'LAUNDRY', 'STORAGE', 'GARAGE', 'CELLAR', 'ATTIC_ROOM', 'OTHER',
]);
export const EstateStaircaseType = z.enum(['STRAIGHT', 'QUARTER_TURN', 'HALF_TURN', 'SPIRAL']);
/** Which system an estate came from (API.md 4.3, extension on create). */
export const EstateProviderType = z.enum(['API', 'WHISE', 'SKARABEE', 'SWEEPBRIGHT', 'ZABUN', 'APIMO', 'OMNICASA', 'OTHER']);
/** Old-style names (API.md 4.2, 4.3): `window_type` has the glazing values, `ground_floor_type` says what the ground floor rests on. */
export const WindowType = GlazingType;
export const GroundFloorType = z.enum(['SOLID_GROUND_FLOOR', 'FLOOR_ABOVE_BASEMENT', 'FLOOR_ABOVE_CRAWL_SPACE']);
/** Where a model input came from (DOMAIN.md 3). */
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
