import { z } from 'zod';
import { EstateFloorType, EstateRoofType, EstateRoomType, EstateStaircaseType, InsulationLevel } from '../enums.ts';
import { atLeastOne, nestedInput, nonEmpty, nullable, optionalFields, positive, readOnlyShape, text } from './schema.ts';
import { CreateEstateBody } from './estate-fields.ts';

// An estate's parts: roofs, floors, and the rooms and staircases on a floor.

/** The interface's part fields first, extensions after; `dimensions` is a nested object like the estate's. */
export const RoofFieldRules = {
  estate_roof_type: EstateRoofType,
  surface_m2: nullable(positive()),
  is_decking_present: nullable(z.boolean()),
  insulation_type: nullable(InsulationLevel),
  // extensions
  name: nullable(text(255)),
  pitch_degrees: nullable(z.number().min(0).max(90)),
} as const;
export const FloorFieldRules = {
  // Basements are below zero; no home has more than a few below or 200 above.
  floor_number: nullable(z.number().int().min(-5).max(200)),
  estate_floor_type: EstateFloorType,
  // extensions
  name: nullable(text(255)),
  surface_m2: nullable(positive()),
  insulation_type: nullable(InsulationLevel),
} as const;
export const RoomFieldRules = {
  surface_m2: nullable(positive()),
  estate_room_type: EstateRoomType,
  // extensions
  name: nullable(text(255)),
  window_count: nullable(z.number().int().min(0).max(1000)),
} as const;
export const StaircaseFieldRules = {
  estate_staircase_type: EstateStaircaseType,
  // extensions
  name: nullable(text(255)),
  step_count: nullable(z.number().int().min(1).max(500)),
} as const;

const heightOnly = { height_cm: nullable(atLeastOne()) } as const;
export const RoofDimensionRules = heightOnly;
export const FloorDimensionRules = heightOnly;
/** Extension: the interface gives a room no dimensions; its clear height is kept the same way. */
export const RoomDimensionRules = heightOnly;
/** `width_cm` is an extension. */
export const StaircaseDimensionRules = { ...heightOnly, width_cm: nullable(atLeastOne()) } as const;

const partValues = <S extends Record<string, z.ZodType>, D extends Record<string, z.ZodType>>(rules: S, dimensions: D) =>
  z.object({ ...rules, dimensions: z.object(dimensions) });
const partChanges = <S extends Record<string, z.ZodType>, D extends Record<string, z.ZodType>>(rules: S, dimensions: D) =>
  z.object({ ...optionalFields(rules), dimensions: z.object(dimensions).partial().optional() });

export const RoofFieldValues = partValues(RoofFieldRules, RoofDimensionRules);
export const FloorFieldValues = partValues(FloorFieldRules, FloorDimensionRules);
export const RoomFieldValues = partValues(RoomFieldRules, RoomDimensionRules);
export const StaircaseFieldValues = partValues(StaircaseFieldRules, StaircaseDimensionRules);
export type RoofFieldValues = z.infer<typeof RoofFieldValues>;
export type FloorFieldValues = z.infer<typeof FloorFieldValues>;
export type RoomFieldValues = z.infer<typeof RoomFieldValues>;
export type StaircaseFieldValues = z.infer<typeof StaircaseFieldValues>;

export const RoofChanges = partChanges(RoofFieldRules, RoofDimensionRules);
export const FloorChanges = partChanges(FloorFieldRules, FloorDimensionRules);
export const RoomChanges = partChanges(RoomFieldRules, RoomDimensionRules);
export const StaircaseChanges = partChanges(StaircaseFieldRules, StaircaseDimensionRules);
export type RoofChanges = z.infer<typeof RoofChanges>;
export type FloorChanges = z.infer<typeof FloorChanges>;
export type RoomChanges = z.infer<typeof RoomChanges>;
export type StaircaseChanges = z.infer<typeof StaircaseChanges>;

/** A part in a body: any field, `dimensions` partial (null clears). */
export type PartInput<V> = { [K in keyof V]?: V[K] extends Record<string, unknown> ? Partial<V[K]> | null : V[K] };

const PART_READ_ONLY = ['id', 'estate_id', 'created_at', 'updated_at'] as const;
const FLOOR_READ_ONLY = [...PART_READ_ONLY, 'rooms', 'staircases'] as const;
const FLOOR_PART_READ_ONLY = [...PART_READ_ONLY, 'floor_id'] as const;

/** Create: the part's type is required (a part without one cannot carry renovation items); the rest may be unknown. */
function partBodies<S extends Record<string, z.ZodType>>(
  rules: S,
  dimensions: Record<string, z.ZodType>,
  typeField: keyof S & string,
  readOnlyFields: readonly string[],
) {
  const rest = Object.fromEntries(
    Object.entries(rules)
      .filter(([k]) => k !== typeField)
      .map(([k, v]) => [k, v.optional()]),
  );
  const create = z.strictObject({
    ...rest,
    [typeField]: rules[typeField]!,
    dimensions: nestedInput(dimensions),
    ...readOnlyShape(readOnlyFields),
  });
  const update = z
    .strictObject({ ...optionalFields(rules), dimensions: nestedInput(dimensions), ...readOnlyShape(readOnlyFields) })
    .refine((b) => Object.keys(b).length > 0, nonEmpty)
    .meta({ minProperties: 1 });
  return { create, update };
}

const roofBodies = partBodies(RoofFieldRules, RoofDimensionRules, 'estate_roof_type', PART_READ_ONLY);
const floorBodies = partBodies(FloorFieldRules, FloorDimensionRules, 'estate_floor_type', FLOOR_READ_ONLY);
const roomBodies = partBodies(RoomFieldRules, RoomDimensionRules, 'estate_room_type', FLOOR_PART_READ_ONLY);
const staircaseBodies = partBodies(StaircaseFieldRules, StaircaseDimensionRules, 'estate_staircase_type', FLOOR_PART_READ_ONLY);

export type RoofInput = PartInput<RoofFieldValues>;
export type FloorInput = PartInput<FloorFieldValues>;
export type RoomInput = PartInput<RoomFieldValues>;
export type StaircaseInput = PartInput<StaircaseFieldValues>;
export const CreateRoofBody = roofBodies.create as unknown as z.ZodType<RoofInput & Pick<RoofFieldValues, 'estate_roof_type'>>;
export const UpdateRoofBody = roofBodies.update as unknown as z.ZodType<RoofInput>;
/**
 * `cmd.estates.create-described-estate` (internal, no route): an estate as `CreateEstateBody`
 * describes it, with the roofs a context that creates it from a description (a calculation job)
 * names, stored with the estate in one append rather than added one request after another.
 */
export const CreateDescribedEstateBody = CreateEstateBody.extend({ roofs: z.array(CreateRoofBody).max(10).optional() });
export type CreateDescribedEstateBody = z.infer<typeof CreateDescribedEstateBody>;
/**
 * The estate a calculation job describes (`describe-estate-for-job`): its id, whether it existed before
 * (and was updated), and the score it holds (null when none).
 */
export const JobEstate = z.object({ id: z.uuid(), existed: z.boolean(), epc_score: z.number().nullable() });
export type JobEstate = z.infer<typeof JobEstate>;
export const CreateFloorBody = floorBodies.create as unknown as z.ZodType<FloorInput & Pick<FloorFieldValues, 'estate_floor_type'>>;
export const UpdateFloorBody = floorBodies.update as unknown as z.ZodType<FloorInput>;
export const CreateRoomBody = roomBodies.create as unknown as z.ZodType<RoomInput & Pick<RoomFieldValues, 'estate_room_type'>>;
export const UpdateRoomBody = roomBodies.update as unknown as z.ZodType<RoomInput>;
export const CreateStaircaseBody = staircaseBodies.create as unknown as z.ZodType<
  StaircaseInput & Pick<StaircaseFieldValues, 'estate_staircase_type'>
>;
export const UpdateStaircaseBody = staircaseBodies.update as unknown as z.ZodType<StaircaseInput>;
