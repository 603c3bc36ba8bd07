import { z } from 'zod';
import {
  BasementType, Country, EcoFacility, EstateFloorType, EstateFormat, EstateProviderType, EstateRoofType, EstateRoomType,
  EstateStaircaseType, EstateStatus, EstateType, GlazingType, GroundFloorType, HeatingDevice, HeatingType, InsulationLevel,
  QualityLabel, Region, SanitaryHeatingDevice, VentilationType,
} from './enums.ts';
import { Timestamp, Uuid } from './identity.ts';

/**
 * Estates context (API.md 4.3, 4.4): an estate and its parts (roofs, floors with rooms and
 * staircases), files, media and estate members. One stream per estate holds everything.
 *
 * The estate keeps every field of the trajectory request's PropertyDescription under the same name
 * (so a job can create an estate without losing data), except: `roof_type` is `estate_roof_type`
 * (API.md 4.3), the building's width, depth and cornice height are `dimensions.*_cm` in centimetres
 * (API.md 1), and the roof surfaces and insulation live on the estate's roofs (one per roof type).
 * `ground_floor_type` / `ground_floor_insulation_type` are the old-style summary of the floor; the
 * detailed basement and solid-floor fields win when both are given.
 */

// ---- field rules ----

// Control characters (NUL, escapes) in a name or address are never data: refuse them.
const text = (max: number) => z.string().trim().min(1).max(max).regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'must not contain control characters');
/** No real home part reaches a million (m2, cm or kWp): a bound that keeps nonsense like 1e308 out. */
const SANITY_MAX = 1_000_000;
const atLeastOne = () => z.number().min(1).max(SANITY_MAX);
const positive = () => z.number().positive().max(SANITY_MAX);
const year = () => z.number().int().min(1000).max(2100);
const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();

/** PATCH bodies must change something; checked only when the fields themselves are valid. */
const nonEmpty = { message: 'must change at least one field', when: (p: { issues: unknown[] }) => p.issues.length === 0 };
/** A field a client may read but never write: naming it in a PATCH body is a 400 naming the field. */
const readOnly = () => z.unknown().refine(() => false, { message: 'is not editable' }).optional();
const readOnlyShape = <F extends string>(fields: readonly F[]) =>
  Object.fromEntries(fields.map((f) => [f, readOnly()])) as { [K in F]: ReturnType<typeof readOnly> };

export const EstateDimensions = z.strictObject({
  width_cm: nullable(atLeastOne()),
  depth_cm: nullable(atLeastOne()),
  cornice_height_cm: nullable(atLeastOne()),
});
export type EstateDimensions = z.infer<typeof EstateDimensions>;
export const NO_DIMENSIONS: EstateDimensions = { width_cm: null, depth_cm: null, cornice_height_cm: null };

const ecoFacilities = z
  .array(EcoFacility)
  .max(EcoFacility.options.length)
  .refine((list) => new Set(list).size === list.length, { message: 'must not repeat a value' });

/** The estate's own fields, every one nullable (unknown); dimensions are handled on their own. */
export const EstateFieldRules = {
  external_id: nullable(text(255)),
  name: nullable(text(255)),
  description: nullable(z.string().trim().max(5000)),
  street: nullable(text(255)),
  house_number: nullable(text(32)),
  box: nullable(text(32)),
  zip_code: nullable(text(16)),
  city: nullable(text(255)),
  country: nullable(Country),
  estate_type: nullable(EstateType),
  estate_format: nullable(EstateFormat),
  estate_status: nullable(EstateStatus),
  year_built: nullable(year()),
  year_renovated: nullable(year()),
  habitable_space_m2: nullable(atLeastOne()),
  number_of_floors: nullable(z.number().int().min(1).max(200)),
  // EPC scores go below zero (Flanders A+, Dutch energy-positive homes), so only finiteness is checked.
  energy_efficiency_score: nullable(z.number().min(-1000).max(5000)),
  estate_roof_type: nullable(EstateRoofType),
  outer_wall_surface: nullable(atLeastOne()),
  outer_wall_insulation_type: nullable(InsulationLevel),
  has_cavity_wall: nullable(z.boolean()),
  cavity_wall_width: nullable(atLeastOne()),
  has_cavity_wall_insulation: nullable(z.boolean()),
  window_surface: nullable(atLeastOne()),
  window_glazing_type: nullable(GlazingType),
  ground_floor_type: nullable(GroundFloorType),
  ground_floor_insulation_type: nullable(InsulationLevel),
  basement_type: nullable(BasementType),
  basement_ceiling_surface: nullable(atLeastOne()),
  floor_above_basement_insulation_type: nullable(InsulationLevel),
  solid_ground_floor_surface: nullable(atLeastOne()),
  solid_ground_floor_insulation_type: nullable(InsulationLevel),
  ventilation_type: nullable(VentilationType),
  heating_type: nullable(HeatingType),
  heating_device: nullable(HeatingDevice),
  installation_age: nullable(z.number().int().min(0).max(200)),
  sanitary_heating_device: nullable(SanitaryHeatingDevice),
  solar_panels_kwp: nullable(z.number().min(0).max(1000)),
  has_solar_boiler: nullable(z.boolean()),
  eco_facilities: ecoFacilities,
  managing_user_id: nullable(Uuid),
} as const;

/** Every estate field with its value (events and read models carry all of them). */
export const EstateFieldValues = z.object({ ...EstateFieldRules, dimensions: EstateDimensions });
export type EstateFieldValues = z.infer<typeof EstateFieldValues>;
export type EstateFieldName = keyof EstateFieldValues;
export const ESTATE_FIELD_NAMES = [...Object.keys(EstateFieldRules), 'dimensions'] as EstateFieldName[];

const optionalFields = <S extends Record<string, z.ZodType>>(shape: S) =>
  Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])) as { [K in keyof S]: z.ZodOptional<S[K]> };

/** Dimensions in a body: any of the three, null clears one; `dimensions: null` clears all three. */
const DimensionsInput = EstateDimensions.partial().nullable();

/** Fields the service sets or that belong to sub-resources: never in a create or PATCH body. */
export const ESTATE_READ_ONLY_FIELDS = [
  'id', 'organization_id', 'created_at', 'updated_at', 'quality_label', 'referral_link', 'roofs', 'floors', 'files', 'media', 'members',
] as const;

/** POST /estates: no field is required (data quality decides what planning can do), every given one is checked. */
export const CreateEstateBody = z.strictObject({
  ...optionalFields(EstateFieldRules),
  dimensions: DimensionsInput.optional(),
  estate_provider_type: EstateProviderType.optional(),
  ...readOnlyShape(ESTATE_READ_ONLY_FIELDS),
});
export type CreateEstateBody = z.infer<typeof CreateEstateBody>;

/** PATCH /estates/{id}: the estate's own fields; the provider is fixed at creation. */
export const UpdateEstateBody = z
  .strictObject({
    ...optionalFields(EstateFieldRules),
    dimensions: DimensionsInput.optional(),
    ...readOnlyShape([...ESTATE_READ_ONLY_FIELDS, 'estate_provider_type']),
  })
  .refine((b) => Object.keys(b).length > 0, nonEmpty);
export type UpdateEstateBody = z.infer<typeof UpdateEstateBody>;

// ---- parts ----

export const RoofFieldRules = {
  name: nullable(text(255)),
  estate_roof_type: EstateRoofType,
  surface_m2: nullable(positive()),
  insulation_type: nullable(InsulationLevel),
  pitch_degrees: nullable(z.number().min(0).max(90)),
} as const;
export const FloorFieldRules = {
  name: nullable(text(255)),
  estate_floor_type: EstateFloorType,
  surface_m2: nullable(positive()),
  height_cm: nullable(atLeastOne()),
  insulation_type: nullable(InsulationLevel),
} as const;
export const RoomFieldRules = {
  name: nullable(text(255)),
  estate_room_type: EstateRoomType,
  surface_m2: nullable(positive()),
  height_cm: nullable(atLeastOne()),
  window_count: nullable(z.number().int().min(0).max(1000)),
} as const;
export const StaircaseFieldRules = {
  name: nullable(text(255)),
  estate_staircase_type: EstateStaircaseType,
  step_count: nullable(z.number().int().min(1).max(500)),
  width_cm: nullable(atLeastOne()),
} as const;

export const RoofFieldValues = z.object(RoofFieldRules);
export const FloorFieldValues = z.object(FloorFieldRules);
export const RoomFieldValues = z.object(RoomFieldRules);
export const StaircaseFieldValues = z.object(StaircaseFieldRules);
export type RoofFieldValues = z.infer<typeof RoofFieldValues>;
export type FloorFieldValues = z.infer<typeof FloorFieldValues>;
export type RoomFieldValues = z.infer<typeof RoomFieldValues>;
export type StaircaseFieldValues = z.infer<typeof StaircaseFieldValues>;

const PART_READ_ONLY = ['id', 'estate_id', 'created_at', 'updated_at'] as const;
const FLOOR_READ_ONLY = [...PART_READ_ONLY, 'rooms', 'staircases'] as const;
const FLOOR_PART_READ_ONLY = [...PART_READ_ONLY, 'floor_id'] as const;

/** Create: the part's type is required (a part without one cannot carry renovation items); the rest may be unknown. */
function partBodies<S extends Record<string, z.ZodType>>(rules: S, typeField: keyof S & string, readOnlyFields: readonly string[]) {
  const rest = Object.fromEntries(Object.entries(rules).filter(([k]) => k !== typeField).map(([k, v]) => [k, v.optional()]));
  const create = z.strictObject({ ...rest, [typeField]: rules[typeField]!, ...readOnlyShape(readOnlyFields) });
  const update = z
    .strictObject({ ...optionalFields(rules), ...readOnlyShape(readOnlyFields) })
    .refine((b) => Object.keys(b).length > 0, nonEmpty);
  return { create, update };
}

const roofBodies = partBodies(RoofFieldRules, 'estate_roof_type', PART_READ_ONLY);
const floorBodies = partBodies(FloorFieldRules, 'estate_floor_type', FLOOR_READ_ONLY);
const roomBodies = partBodies(RoomFieldRules, 'estate_room_type', FLOOR_PART_READ_ONLY);
const staircaseBodies = partBodies(StaircaseFieldRules, 'estate_staircase_type', FLOOR_PART_READ_ONLY);

export const CreateRoofBody = roofBodies.create as unknown as z.ZodType<Partial<RoofFieldValues> & Pick<RoofFieldValues, 'estate_roof_type'>>;
export const UpdateRoofBody = roofBodies.update as unknown as z.ZodType<Partial<RoofFieldValues>>;
export const CreateFloorBody = floorBodies.create as unknown as z.ZodType<Partial<FloorFieldValues> & Pick<FloorFieldValues, 'estate_floor_type'>>;
export const UpdateFloorBody = floorBodies.update as unknown as z.ZodType<Partial<FloorFieldValues>>;
export const CreateRoomBody = roomBodies.create as unknown as z.ZodType<Partial<RoomFieldValues> & Pick<RoomFieldValues, 'estate_room_type'>>;
export const UpdateRoomBody = roomBodies.update as unknown as z.ZodType<Partial<RoomFieldValues>>;
export const CreateStaircaseBody = staircaseBodies.create as unknown as z.ZodType<Partial<StaircaseFieldValues> & Pick<StaircaseFieldValues, 'estate_staircase_type'>>;
export const UpdateStaircaseBody = staircaseBodies.update as unknown as z.ZodType<Partial<StaircaseFieldValues>>;

// ---- files, media and members ----

export const FileKind = z.enum(['FILE', 'MEDIA']);
export type FileKind = z.infer<typeof FileKind>;

/** Media types allowed per kind, decided from the bytes (API.md 4.3). */
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
  email_address: z.email({ error: 'must be an email address' }).max(320),
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

export const Roof = z.object({ id: Uuid, estate_id: Uuid, ...RoofFieldRules, created_at: Timestamp, updated_at: Timestamp });
export const Room = z.object({ id: Uuid, estate_id: Uuid, floor_id: Uuid, ...RoomFieldRules, created_at: Timestamp, updated_at: Timestamp });
export const Staircase = z.object({ id: Uuid, estate_id: Uuid, floor_id: Uuid, ...StaircaseFieldRules, created_at: Timestamp, updated_at: Timestamp });
export const Floor = z.object({
  id: Uuid,
  estate_id: Uuid,
  ...FloorFieldRules,
  rooms: z.array(Room),
  staircases: z.array(Staircase),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Roof = z.infer<typeof Roof>;
export type Room = z.infer<typeof Room>;
export type Staircase = z.infer<typeof Staircase>;
export type Floor = z.infer<typeof Floor>;

/** A file or a medium. `url` is a signed download link valid for one hour, made fresh on every read. */
export const EstateFile = z.object({
  id: Uuid,
  estate_id: Uuid,
  name: z.string(),
  mimetype: z.string(),
  size: z.number().int(),
  url: z.string().nullable(),
  created_at: Timestamp,
});
export type EstateFile = z.infer<typeof EstateFile>;

export const EstateMember = z.object({
  user_id: Uuid,
  estate_id: Uuid,
  /** Estate members are CLIENT (API.md 4.3). */
  member_type: z.literal('CLIENT'),
  email_address: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  created_at: Timestamp,
});
export type EstateMember = z.infer<typeof EstateMember>;

/** The list form: the estate without its parts, files, media and members. */
export const EstateListForm = z.object({
  id: Uuid,
  organization_id: Uuid,
  estate_provider_type: EstateProviderType,
  ...EstateFieldRules,
  dimensions: EstateDimensions,
  quality_label: QualityLabel,
  referral_link: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type EstateListForm = z.infer<typeof EstateListForm>;

export const Estate = EstateListForm.extend({
  roofs: z.array(Roof),
  floors: z.array(Floor),
  files: z.array(EstateFile),
  media: z.array(EstateFile),
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

/** One event of an estate's history (audit): who, when and what. */
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

/** What the public referral page shows: what an agency's advert shows, and the model's estimate. */
export const ReferralSummary = z.object({
  estate_type: EstateType.nullable(),
  city: z.string().nullable(),
  zip_code: z.string().nullable(),
  country: Country.nullable(),
  region: Region.nullable(),
  epc_label: z.string().nullable(),
  energy_efficiency_type: z.string().nullable(),
  confidence_score: z.number().nullable(),
  quality_label: QualityLabel,
});
export type ReferralSummary = z.infer<typeof ReferralSummary>;

// ---- commands (imperative; time and new ids come in, the decider stays pure) ----

const fieldChanges = EstateFieldValues.partial();

/** The person fields an estate keeps of each member (copied from identity). */
const EstateMemberDetails = z.object({ email_address: z.string(), first_name: z.string(), last_name: z.string() }).partial();

export const EstateCommands = {
  CreateEstate: z.object({
    estate_id: Uuid,
    organization_id: Uuid,
    estate_provider_type: EstateProviderType,
    /** Unguessable token of the public referral page, drawn by the handler. */
    referral_token: z.string(),
    fields: CreateEstateBody,
  }),
  UpdateEstate: z.object({ estate_id: Uuid, changes: UpdateEstateBody }),
  DeleteEstate: z.object({ estate_id: Uuid }),
  AddRoof: z.object({ estate_id: Uuid, roof_id: Uuid, fields: RoofFieldValues.partial() }),
  UpdateRoof: z.object({ estate_id: Uuid, roof_id: Uuid, changes: RoofFieldValues.partial() }),
  RemoveRoof: z.object({ estate_id: Uuid, roof_id: Uuid }),
  AddFloor: z.object({ estate_id: Uuid, floor_id: Uuid, fields: FloorFieldValues.partial() }),
  UpdateFloor: z.object({ estate_id: Uuid, floor_id: Uuid, changes: FloorFieldValues.partial() }),
  RemoveFloor: z.object({ estate_id: Uuid, floor_id: Uuid }),
  AddRoom: z.object({ estate_id: Uuid, floor_id: Uuid, room_id: Uuid, fields: RoomFieldValues.partial() }),
  UpdateRoom: z.object({ estate_id: Uuid, floor_id: Uuid, room_id: Uuid, changes: RoomFieldValues.partial() }),
  RemoveRoom: z.object({ estate_id: Uuid, floor_id: Uuid, room_id: Uuid }),
  AddStaircase: z.object({ estate_id: Uuid, floor_id: Uuid, staircase_id: Uuid, fields: StaircaseFieldValues.partial() }),
  UpdateStaircase: z.object({ estate_id: Uuid, floor_id: Uuid, staircase_id: Uuid, changes: StaircaseFieldValues.partial() }),
  RemoveStaircase: z.object({ estate_id: Uuid, floor_id: Uuid, staircase_id: Uuid }),
  AddFile: z.object({ estate_id: Uuid, file_id: Uuid, kind: FileKind, upload: UploadedFile }),
  RemoveFile: z.object({ estate_id: Uuid, file_id: Uuid, kind: FileKind }),
  AddEstateMember: z.object({
    estate_id: Uuid,
    user_id: Uuid,
    email_address: z.string(),
    first_name: z.string(),
    last_name: z.string(),
  }),
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
  EstateUpdated: z.object({ estate_id: Uuid, changes: fieldChanges }),
  /** Follows the removal events of every part and file; renovations and reports cascade from it. */
  EstateDeleted: z.object({ estate_id: Uuid, organization_id: Uuid }),
  RoofAdded: z.object({ estate_id: Uuid, roof_id: Uuid, fields: RoofFieldValues }),
  RoofUpdated: z.object({ estate_id: Uuid, roof_id: Uuid, changes: RoofFieldValues.partial() }),
  RoofRemoved: z.object({ estate_id: Uuid, roof_id: Uuid }),
  FloorAdded: z.object({ estate_id: Uuid, floor_id: Uuid, fields: FloorFieldValues }),
  FloorUpdated: z.object({ estate_id: Uuid, floor_id: Uuid, changes: FloorFieldValues.partial() }),
  /** Follows the RoomRemoved and StaircaseRemoved events of the floor's rooms and staircases. */
  FloorRemoved: z.object({ estate_id: Uuid, floor_id: Uuid }),
  RoomAdded: z.object({ estate_id: Uuid, floor_id: Uuid, room_id: Uuid, fields: RoomFieldValues }),
  RoomUpdated: z.object({ estate_id: Uuid, floor_id: Uuid, room_id: Uuid, changes: RoomFieldValues.partial() }),
  RoomRemoved: z.object({ estate_id: Uuid, floor_id: Uuid, room_id: Uuid }),
  StaircaseAdded: z.object({ estate_id: Uuid, floor_id: Uuid, staircase_id: Uuid, fields: StaircaseFieldValues }),
  StaircaseUpdated: z.object({ estate_id: Uuid, floor_id: Uuid, staircase_id: Uuid, changes: StaircaseFieldValues.partial() }),
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
  }),
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
  /** Public (no token): the referral page's data for `/r/{token}`. */
  referral: 'qry.estates.referral',
  /**
   * Internal (the calculations context, not HTTP): record the quality label of an estate's latest
   * trajectory. Body: EstateCommands.RecordTrajectoryQuality without `type`.
   */
  recordTrajectoryQuality: 'cmd.estates.record-trajectory-quality',
} as const;
