import { z } from 'zod';
import {
  Country,
  EcoFacility,
  EstateFloorType,
  EstateFormat,
  EstateProviderType,
  EstateRoofType,
  EstateRoomType,
  EstateStaircaseType,
  EstateStatus,
  EstateType,
  GroundFloorType,
  InsulationLevel,
  QualityLabel,
} from './enums.ts';
import { MembershipStatus, Timestamp, Uuid } from './identity.ts';
import { PropertyFields } from './trajectory-request.ts';
import { distinct, emailAddress, multiLine, singleLine } from './text.ts';

/**
 * Estates context (the interface's "Estate", "Estate parts"; docs/http-contract.md "Estates and their parts"): an estate and its parts
 * (roofs, floors with rooms and staircases), files, media and estate members. One stream per estate
 * holds everything.
 *
 * Names, types and nesting are the interface's: `address`, `commercial_context`, `energy_context` and
 * `dimensions` are objects, from the HTTP body through commands and events to the replies. As an
 * extension the energy context carries every other energy field of the trajectory request under the
 * same name and type, so a job can create an estate without losing data; the roof surfaces and their
 * insulation live on the estate's roofs (docs/http-contract.md "Estates and their parts"), and `dimensions.*_cm` are the request's
 * building width, depth and cornice height in centimetres (docs/http-contract.md "General rules").
 */

// ---- field rules ----

// Control characters, unpaired surrogates and bidi overrides in a name or address are never data: text.ts.
const text = singleLine;
/** No real home part reaches a million (m2, cm or kWp): a bound that keeps nonsense like 1e308 out. */
const SANITY_MAX = 1_000_000;
const atLeastOne = () => z.number().min(1).max(SANITY_MAX);
const positive = () => z.number().positive().max(SANITY_MAX);
const year = () => z.number().int().min(1000).max(2100);
const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();
/** A trajectory-request field under the estate: the same name and type, null when unknown. */
const asInRequest = <T extends z.ZodType>(field: z.ZodOptional<T>) => field.unwrap().nullable();

/** PATCH bodies must change something; checked only when the fields themselves are valid. */
const nonEmpty = { message: 'must change at least one field', when: (p: { issues: unknown[] }) => p.issues.length === 0 };
/** A field a client may read but never write: naming it in a body is a 400 naming the field. */
const readOnly = () =>
  z
    .unknown()
    .refine(() => false, { message: 'is not editable' })
    .optional()
    .meta({ readOnly: true });
const readOnlyShape = <F extends string>(fields: readonly F[]) =>
  Object.fromEntries(fields.map((f) => [f, readOnly()])) as { [K in F]: ReturnType<typeof readOnly> };
const optionalFields = <S extends Record<string, z.ZodType>>(shape: S) =>
  Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])) as { [K in keyof S]: z.ZodOptional<S[K]> };
/** A nested object in a body: any of its fields (null clears one); the object itself `null` clears them all. */
const nestedInput = <S extends Record<string, z.ZodType>, F extends string = never>(shape: S, readOnlyFields: readonly F[] = []) =>
  z
    .strictObject({ ...optionalFields(shape), ...readOnlyShape(readOnlyFields) })
    .nullable()
    .optional();

const ecoFacilities = distinct(z.array(EcoFacility).max(EcoFacility.options.length));

/** The interface `address`. */
export const AddressRules = {
  street: nullable(text(255)),
  house_number: nullable(text(32)),
  house_number_extra: nullable(text(32)),
  zip_code: nullable(text(16)),
  place: nullable(text(255)),
  country: nullable(Country),
} as const;

/** The interface `commercial_context` as written; reads add `commercial_media_files` (the estate's media). */
export const CommercialContextRules = {
  price: asInRequest(PropertyFields.price),
} as const;

/** The interface `energy_context`, then (extension) the trajectory request's other energy fields. */
export const EnergyContextRules = {
  heating_type: asInRequest(PropertyFields.heating_type),
  heating_device: asInRequest(PropertyFields.heating_device),
  sanitary_heating_device: asInRequest(PropertyFields.sanitary_heating_device),
  eco_facilities: ecoFacilities,
  ground_floor_insulation_type: nullable(InsulationLevel),
  outer_wall_insulation_type: asInRequest(PropertyFields.outer_wall_insulation_type),
  // EPC scores go below zero (Flanders A+, Dutch energy-positive homes); the request's `energy_efficiency_score`.
  epc_score: nullable(z.number().min(-1000).max(5000)),
  // extensions
  ventilation_type: asInRequest(PropertyFields.ventilation_type),
  window_glazing_type: asInRequest(PropertyFields.window_glazing_type),
  window_glazing_surface: asInRequest(PropertyFields.window_glazing_surface),
  has_cavity_wall: asInRequest(PropertyFields.has_cavity_wall),
  cavity_wall_width: asInRequest(PropertyFields.cavity_wall_width),
  has_cavity_wall_insulation: asInRequest(PropertyFields.has_cavity_wall_insulation),
  outer_wall_surface: asInRequest(PropertyFields.outer_wall_surface),
  basement_type: asInRequest(PropertyFields.basement_type),
  basement_ceiling_surface: asInRequest(PropertyFields.basement_ceiling_surface),
  basement_ceiling_height: asInRequest(PropertyFields.basement_ceiling_height),
  floor_above_basement_insulation_type: asInRequest(PropertyFields.floor_above_basement_insulation_type),
  solid_ground_floor_insulation_type: asInRequest(PropertyFields.solid_ground_floor_insulation_type),
  ground_floor_surface: asInRequest(PropertyFields.ground_floor_surface),
  /** Old-style summary of what the ground floor rests on; the detailed basement fields win when both are given. */
  ground_floor_type: nullable(GroundFloorType),
  installation_age: asInRequest(PropertyFields.installation_age),
  has_solar_panels: asInRequest(PropertyFields.has_solar_panels),
  solar_panels_kwp: asInRequest(PropertyFields.solar_panels_kwp),
  has_solar_boiler: asInRequest(PropertyFields.has_solar_boiler),
  attic_usage: asInRequest(PropertyFields.attic_usage),
  has_renewed_window_frames: asInRequest(PropertyFields.has_renewed_window_frames),
  air_tightness_v50: asInRequest(PropertyFields.air_tightness_v50),
  heat_emitter_type: asInRequest(PropertyFields.heat_emitter_type),
} as const;

/** The interface `dimensions`, in centimetres; `height_cm` is the cornice height. */
export const DimensionsRules = {
  width_cm: nullable(atLeastOne()),
  depth_cm: nullable(atLeastOne()),
  height_cm: nullable(atLeastOne()),
} as const;

/** The estate's own top-level fields, every one nullable (unknown). */
export const EstateOwnFieldRules = {
  external_id: nullable(text(255)),
  managing_user_id: nullable(Uuid),
  year_built: nullable(year()),
  year_renovated: nullable(year()),
  estate_type: nullable(EstateType),
  estate_format: nullable(EstateFormat),
  estate_status: nullable(EstateStatus),
  habitable_space_m2: nullable(atLeastOne()),
  ground_surface_m2: nullable(atLeastOne()),
  // extensions
  name: nullable(text(255)),
  description: nullable(multiLine(5000)),
  number_of_floors: nullable(z.number().int().min(1).max(200)),
} as const;

export const EstateAddress = z.object(AddressRules);
export const EstateCommercialFields = z.object(CommercialContextRules);
export const EstateEnergyContext = z.object(EnergyContextRules);
export const EstateDimensions = z.object(DimensionsRules);
export type EstateAddress = z.infer<typeof EstateAddress>;
export type EstateEnergyContext = z.infer<typeof EstateEnergyContext>;
export type EstateDimensions = z.infer<typeof EstateDimensions>;

/** Every estate field with its value (events and read models carry all of them). */
export const EstateFieldValues = z.object({
  ...EstateOwnFieldRules,
  address: EstateAddress,
  commercial_context: EstateCommercialFields,
  energy_context: EstateEnergyContext,
  dimensions: EstateDimensions,
});
export type EstateFieldValues = z.infer<typeof EstateFieldValues>;

/** What an EstateUpdated event changed: top-level fields, and only the changed fields of a nested object. */
export const EstateChanges = z.object({
  ...optionalFields(EstateOwnFieldRules),
  address: EstateAddress.partial().optional(),
  commercial_context: EstateCommercialFields.partial().optional(),
  energy_context: EstateEnergyContext.partial().optional(),
  dimensions: EstateDimensions.partial().optional(),
});
export type EstateChanges = z.infer<typeof EstateChanges>;

/** Fields the service sets or that belong to sub-resources: never in a create or PATCH body. */
export const ESTATE_READ_ONLY_FIELDS = [
  'id',
  'organization_id',
  'created_at',
  'updated_at',
  'quality_label',
  'referral_link',
  'roofs',
  'floors',
  'files',
  'media',
  'members',
] as const;

const estateBodyShape = {
  ...optionalFields(EstateOwnFieldRules),
  address: nestedInput(AddressRules),
  commercial_context: nestedInput(CommercialContextRules, ['commercial_media_files']),
  // `eco_facilities: null` clears the list, like null clears any other field.
  energy_context: nestedInput({ ...EnergyContextRules, eco_facilities: ecoFacilities.nullable() }),
  dimensions: nestedInput(DimensionsRules),
};

/** POST /estates: no field is required (data quality decides what planning can do), every given one is checked. */
export const CreateEstateBody = z.strictObject({
  ...estateBodyShape,
  estate_provider_type: EstateProviderType.optional(),
  ...readOnlyShape(ESTATE_READ_ONLY_FIELDS),
});
export type CreateEstateBody = z.infer<typeof CreateEstateBody>;

/** PATCH /estates/{id}: the estate's own fields (also managing_user_id); nested objects merge; the provider is fixed at creation. */
export const UpdateEstateBody = z
  .strictObject({
    ...estateBodyShape,
    ...readOnlyShape([...ESTATE_READ_ONLY_FIELDS, 'estate_provider_type']),
  })
  .refine((b) => Object.keys(b).length > 0, nonEmpty)
  .meta({ minProperties: 1 });
export type UpdateEstateBody = z.infer<typeof UpdateEstateBody>;

// ---- parts ----

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
export const CreateFloorBody = floorBodies.create as unknown as z.ZodType<FloorInput & Pick<FloorFieldValues, 'estate_floor_type'>>;
export const UpdateFloorBody = floorBodies.update as unknown as z.ZodType<FloorInput>;
export const CreateRoomBody = roomBodies.create as unknown as z.ZodType<RoomInput & Pick<RoomFieldValues, 'estate_room_type'>>;
export const UpdateRoomBody = roomBodies.update as unknown as z.ZodType<RoomInput>;
export const CreateStaircaseBody = staircaseBodies.create as unknown as z.ZodType<
  StaircaseInput & Pick<StaircaseFieldValues, 'estate_staircase_type'>
>;
export const UpdateStaircaseBody = staircaseBodies.update as unknown as z.ZodType<StaircaseInput>;

// ---- files, media and members ----

export const FileKind = z.enum(['FILE', 'MEDIA']);
export type FileKind = z.infer<typeof FileKind>;

/** Media types allowed per kind, decided from the bytes (docs/http-contract.md "Estates and their parts"). */
export const FILE_MEDIA_TYPES = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/tiff',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
] as const;
export const MEDIA_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'video/mp4'] as const;

/**
 * What the gateway sends after storing an upload in the blob store: the bytes never cross the bus.
 * `blob_key` is the gateway's fresh key under `uploads/`.
 */
export const UploadedFile = z.strictObject({
  blob_key: z.string().regex(/^uploads\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'must be an upload key'),
  name: text(255),
  mimetype: z.string().min(1).max(255),
  size: z.number().int().min(1),
});
export type UploadedFile = z.infer<typeof UploadedFile>;

export const AddEstateMemberBody = z.strictObject({
  email_address: emailAddress(),
  first_name: text(200),
  last_name: text(200),
});
export type AddEstateMemberBody = z.infer<typeof AddEstateMemberBody>;

// ---- queries ----

export const GetEstateQuery = z.strictObject({
  /** Extension: replay the estate's history up to this moment (inclusive). */
  as_of: z.iso.datetime({ offset: true, error: 'must be an ISO-8601 timestamp' }).optional(),
});
export type GetEstateQuery = z.infer<typeof GetEstateQuery>;

export const EstateListQuery = z.strictObject({
  external_id: text(255).optional(),
  estate_provider_type: EstateProviderType.optional(),
});
export type EstateListQuery = z.infer<typeof EstateListQuery>;

// ---- replies (read models) ----

const stamps = { created_at: Timestamp, updated_at: Timestamp } as const;
export const Roof = z.object({ id: Uuid, dimensions: z.object(RoofDimensionRules), ...RoofFieldRules, estate_id: Uuid, ...stamps });
export const Room = z.object({
  id: Uuid,
  ...RoomFieldRules,
  estate_id: Uuid,
  floor_id: Uuid,
  dimensions: z.object(RoomDimensionRules),
  ...stamps,
});
export const Staircase = z.object({
  id: Uuid,
  dimensions: z.object(StaircaseDimensionRules),
  ...StaircaseFieldRules,
  estate_id: Uuid,
  floor_id: Uuid,
  ...stamps,
});
export const Floor = z.object({
  id: Uuid,
  dimensions: z.object(FloorDimensionRules),
  ...FloorFieldRules,
  estate_id: Uuid,
  rooms: z.array(Room),
  staircases: z.array(Staircase),
  ...stamps,
});
export type Roof = z.infer<typeof Roof>;
export type Room = z.infer<typeof Room>;
export type Staircase = z.infer<typeof Staircase>;
export type Floor = z.infer<typeof Floor>;

/** A file or a medium (the interface: id, name, url, mimetype). `url` is a signed download link valid for one hour, made fresh on every read. */
export const EstateFile = z.object({
  id: Uuid,
  name: z.string(),
  url: z.string().nullable(),
  mimetype: z.string(),
  // extensions
  estate_id: Uuid,
  size: z.number().int(),
  created_at: Timestamp,
});
export type EstateFile = z.infer<typeof EstateFile>;

/** The interface's estate member: `id` is the member's user id (DELETE .../members/{member_id} takes it). */
export const EstateMember = z.object({
  id: Uuid,
  email_address: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  /** Estate members are CLIENT (docs/http-contract.md "Estates and their parts"). */
  member_type: z.literal('CLIENT'),
  // extensions
  user_id: Uuid,
  estate_id: Uuid,
  /** PENDING until the invitee accepts the emailed invitation (names and address as the inviter gave them); grants nothing before. */
  status: MembershipStatus,
  created_at: Timestamp,
});
export type EstateMember = z.infer<typeof EstateMember>;

/** `commercial_context` in reads: the price and the estate's media. */
export const EstateCommercialContext = EstateCommercialFields.extend({ commercial_media_files: z.array(EstateFile) });

/** The list form (the interface): without energy_context, dimensions, habitable_space_m2, ground_surface_m2, files, and (extension) parts, media and members. */
export const EstateListForm = z.object({
  id: Uuid,
  external_id: EstateOwnFieldRules.external_id,
  managing_user_id: EstateOwnFieldRules.managing_user_id,
  year_built: EstateOwnFieldRules.year_built,
  year_renovated: EstateOwnFieldRules.year_renovated,
  estate_type: EstateOwnFieldRules.estate_type,
  estate_format: EstateOwnFieldRules.estate_format,
  estate_status: EstateOwnFieldRules.estate_status,
  address: EstateAddress,
  commercial_context: EstateCommercialContext,
  // extensions
  organization_id: Uuid,
  estate_provider_type: EstateProviderType,
  name: EstateOwnFieldRules.name,
  description: EstateOwnFieldRules.description,
  number_of_floors: EstateOwnFieldRules.number_of_floors,
  quality_label: QualityLabel,
  referral_link: z.string(),
  ...stamps,
});
export type EstateListForm = z.infer<typeof EstateListForm>;

/** The detailed form (`GET /estates/{id}`, POST and PATCH replies). */
export const Estate = EstateListForm.extend({
  habitable_space_m2: EstateOwnFieldRules.habitable_space_m2,
  ground_surface_m2: EstateOwnFieldRules.ground_surface_m2,
  energy_context: EstateEnergyContext,
  dimensions: EstateDimensions,
  files: z.array(EstateFile),
  // extensions
  media: z.array(EstateFile),
  roofs: z.array(Roof),
  floors: z.array(Floor),
  members: z.array(EstateMember),
});
export type Estate = z.infer<typeof Estate>;

export const EstateListItem = z.object({
  estate: EstateListForm,
  estate_provider_type: EstateProviderType,
  external_id: z.string().nullable(),
  quality_label: QualityLabel,
  referral_link: z.string(),
});
export const EstateListReply = z.object({ estates: z.array(EstateListItem) });
export type EstateListItem = z.infer<typeof EstateListItem>;
export type EstateListReply = z.infer<typeof EstateListReply>;

/**
 * One event of an estate's history (audit): who, when and what. Upload keys are never shown; a
 * CLIENT reader sees other members' details and other callers' client ids as null.
 */
export const EstateHistoryEntry = z.object({
  event_id: z.string(),
  type: z.string(),
  revision: z.number().int(),
  occurred_at: Timestamp,
  actor: z.object({ user_id: z.string().nullable(), client_id: z.string().nullable() }),
  correlation_id: z.string(),
  causation_id: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type EstateHistoryEntry = z.infer<typeof EstateHistoryEntry>;

// ---- commands (imperative; time and new ids come in, the decider stays pure) ----

/** The person fields an estate keeps of each member (copied from identity). */
const EstateMemberDetails = z.object({ email_address: z.string(), first_name: z.string(), last_name: z.string() }).partial();

export const EstateCommands = {
  CreateEstate: z.object({
    estate_id: Uuid,
    organization_id: Uuid,
    estate_provider_type: EstateProviderType,
    /** Unguessable token of the public referral page, drawn by the handler. */
    referral_token: z.string(),
    fields: CreateEstateBody.omit({ estate_provider_type: true }),
    /** Roofs stored with the estate, in the same append (an internal caller's `roofs`). */
    roofs: z.array(z.object({ roof_id: Uuid, fields: CreateRoofBody })).optional(),
  }),
  UpdateEstate: z.object({ estate_id: Uuid, changes: UpdateEstateBody }),
  DeleteEstate: z.object({ estate_id: Uuid }),
  AddRoof: z.object({ estate_id: Uuid, roof_id: Uuid, fields: CreateRoofBody }),
  UpdateRoof: z.object({ estate_id: Uuid, roof_id: Uuid, changes: UpdateRoofBody }),
  RemoveRoof: z.object({ estate_id: Uuid, roof_id: Uuid }),
  AddFloor: z.object({ estate_id: Uuid, floor_id: Uuid, fields: CreateFloorBody }),
  UpdateFloor: z.object({ estate_id: Uuid, floor_id: Uuid, changes: UpdateFloorBody }),
  RemoveFloor: z.object({ estate_id: Uuid, floor_id: Uuid }),
  AddRoom: z.object({ estate_id: Uuid, floor_id: Uuid, room_id: Uuid, fields: CreateRoomBody }),
  UpdateRoom: z.object({ estate_id: Uuid, floor_id: Uuid, room_id: Uuid, changes: UpdateRoomBody }),
  RemoveRoom: z.object({ estate_id: Uuid, floor_id: Uuid, room_id: Uuid }),
  AddStaircase: z.object({ estate_id: Uuid, floor_id: Uuid, staircase_id: Uuid, fields: CreateStaircaseBody }),
  UpdateStaircase: z.object({ estate_id: Uuid, floor_id: Uuid, staircase_id: Uuid, changes: UpdateStaircaseBody }),
  RemoveStaircase: z.object({ estate_id: Uuid, floor_id: Uuid, staircase_id: Uuid }),
  AddFile: z.object({ estate_id: Uuid, file_id: Uuid, kind: FileKind, upload: UploadedFile }),
  RemoveFile: z.object({ estate_id: Uuid, file_id: Uuid, kind: FileKind }),
  AddEstateMember: z.object({
    estate_id: Uuid,
    user_id: Uuid,
    email_address: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    status: MembershipStatus,
  }),
  /** The invitee accepted (identity's OrganizationMemberAdded): a pending membership starts granting access. */
  ActivateEstateMember: z.object({ estate_id: Uuid, user_id: Uuid }),
  RemoveEstateMember: z.object({ estate_id: Uuid, user_id: Uuid, reason: z.enum(['REMOVED_FROM_ESTATE', 'LEFT_ORGANIZATION']) }),
  /** A member renamed or changed their email address in identity: the estate's copy follows. */
  UpdateEstateMemberDetails: z.object({ estate_id: Uuid, user_id: Uuid, changes: EstateMemberDetails }),
  RecordTrajectoryQuality: z.object({
    estate_id: Uuid,
    calculation_job_id: Uuid,
    confidence_score: z.number().min(0).max(1),
    quality_label: QualityLabel,
  }),
} as const;
export type EstateCommandType = keyof typeof EstateCommands;
export type EstateCommand = {
  [K in EstateCommandType]: { type: K } & z.infer<(typeof EstateCommands)[K]>;
}[EstateCommandType];

// ---- events (past tense; each names the estate and, for a part, the part) ----

export const EstateEvents = {
  EstateCreated: z.object({
    estate_id: Uuid,
    organization_id: Uuid,
    estate_provider_type: EstateProviderType,
    referral_token: z.string(),
    fields: EstateFieldValues,
  }),
  EstateUpdated: z.object({ estate_id: Uuid, changes: EstateChanges }),
  /** Follows the removal events of every part and file; renovations and reports cascade from it. */
  EstateDeleted: z.object({ estate_id: Uuid, organization_id: Uuid }),
  RoofAdded: z.object({ estate_id: Uuid, roof_id: Uuid, fields: RoofFieldValues }),
  RoofUpdated: z.object({ estate_id: Uuid, roof_id: Uuid, changes: RoofChanges }),
  RoofRemoved: z.object({ estate_id: Uuid, roof_id: Uuid }),
  FloorAdded: z.object({ estate_id: Uuid, floor_id: Uuid, fields: FloorFieldValues }),
  FloorUpdated: z.object({ estate_id: Uuid, floor_id: Uuid, changes: FloorChanges }),
  /** Follows the RoomRemoved and StaircaseRemoved events of the floor's rooms and staircases. */
  FloorRemoved: z.object({ estate_id: Uuid, floor_id: Uuid }),
  RoomAdded: z.object({ estate_id: Uuid, floor_id: Uuid, room_id: Uuid, fields: RoomFieldValues }),
  RoomUpdated: z.object({ estate_id: Uuid, floor_id: Uuid, room_id: Uuid, changes: RoomChanges }),
  RoomRemoved: z.object({ estate_id: Uuid, floor_id: Uuid, room_id: Uuid }),
  StaircaseAdded: z.object({ estate_id: Uuid, floor_id: Uuid, staircase_id: Uuid, fields: StaircaseFieldValues }),
  StaircaseUpdated: z.object({ estate_id: Uuid, floor_id: Uuid, staircase_id: Uuid, changes: StaircaseChanges }),
  StaircaseRemoved: z.object({ estate_id: Uuid, floor_id: Uuid, staircase_id: Uuid }),
  EstateFileAdded: z.object({
    estate_id: Uuid,
    file_id: Uuid,
    kind: FileKind,
    name: z.string(),
    mimetype: z.string(),
    size: z.number().int(),
    blob_key: z.string(),
  }),
  EstateFileRemoved: z.object({ estate_id: Uuid, file_id: Uuid, kind: FileKind, blob_key: z.string() }),
  EstateMemberAdded: z.object({
    estate_id: Uuid,
    organization_id: Uuid,
    user_id: Uuid,
    email_address: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    /** Absent in events of earlier versions, which knew only active members. */
    status: MembershipStatus.optional(),
  }),
  EstateMemberActivated: z.object({ estate_id: Uuid, organization_id: Uuid, user_id: Uuid }),
  EstateMemberDetailsUpdated: z.object({ estate_id: Uuid, organization_id: Uuid, user_id: Uuid, changes: EstateMemberDetails }),
  EstateMemberRemoved: z.object({
    estate_id: Uuid,
    organization_id: Uuid,
    user_id: Uuid,
    reason: z.enum(['REMOVED_FROM_ESTATE', 'LEFT_ORGANIZATION']),
  }),
  /** The data-quality grade of the estate's latest trajectory: from now on it is the estate's label. */
  EstateTrajectoryQualityRecorded: z.object({
    estate_id: Uuid,
    calculation_job_id: Uuid,
    confidence_score: z.number(),
    quality_label: QualityLabel,
  }),
} as const;
export type EstateEventType = keyof typeof EstateEvents;
export type EstateEvent = {
  [K in EstateEventType]: { type: K; data: z.infer<(typeof EstateEvents)[K]> };
}[EstateEventType];

// ---- subjects ----

/** Subjects of the estates context (`cmd.estates.*`, `qry.estates.*`; events on `evt.estates.<EventType>`). */
export const EstatesSubjects = {
  createEstate: 'cmd.estates.create-estate',
  listEstates: 'qry.estates.list-estates',
  getEstate: 'qry.estates.get-estate',
  updateEstate: 'cmd.estates.update-estate',
  deleteEstate: 'cmd.estates.delete-estate',
  estateList: 'qry.estates.estate-list',
  history: 'qry.estates.history',
  addFile: 'cmd.estates.add-file',
  removeFile: 'cmd.estates.remove-file',
  addMedia: 'cmd.estates.add-media',
  removeMedia: 'cmd.estates.remove-media',
  listRoofs: 'qry.estates.list-roofs',
  getRoof: 'qry.estates.get-roof',
  addRoof: 'cmd.estates.add-roof',
  updateRoof: 'cmd.estates.update-roof',
  removeRoof: 'cmd.estates.remove-roof',
  listFloors: 'qry.estates.list-floors',
  getFloor: 'qry.estates.get-floor',
  addFloor: 'cmd.estates.add-floor',
  updateFloor: 'cmd.estates.update-floor',
  removeFloor: 'cmd.estates.remove-floor',
  listRooms: 'qry.estates.list-rooms',
  getRoom: 'qry.estates.get-room',
  addRoom: 'cmd.estates.add-room',
  updateRoom: 'cmd.estates.update-room',
  removeRoom: 'cmd.estates.remove-room',
  listStaircases: 'qry.estates.list-staircases',
  getStaircase: 'qry.estates.get-staircase',
  addStaircase: 'cmd.estates.add-staircase',
  updateStaircase: 'cmd.estates.update-staircase',
  removeStaircase: 'cmd.estates.remove-staircase',
  listMembers: 'qry.estates.list-members',
  addMember: 'cmd.estates.add-member',
  removeMember: 'cmd.estates.remove-member',
  /**
   * Internal (the calculations context, not HTTP): record the quality label of an estate's latest
   * trajectory. Body: EstateCommands.RecordTrajectoryQuality without `type`.
   */
  recordTrajectoryQuality: 'cmd.estates.record-trajectory-quality',
  /** Internal (no route): a new estate with the roofs its description names, in one append. Body: CreateDescribedEstateBody. */
  createDescribedEstate: 'cmd.estates.create-described-estate',
} as const;
