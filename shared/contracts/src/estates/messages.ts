import { z } from 'zod';
import { EstateProviderType, QualityLabel } from '../enums.ts';
import { MembershipStatus, personRecord, Uuid } from '../identity.ts';
import { CreateEstateBody, EstateChanges, EstateFieldValues, UpdateEstateBody } from './estate-fields.ts';
import {
  CreateFloorBody,
  CreateRoofBody,
  CreateRoomBody,
  CreateStaircaseBody,
  FloorChanges,
  FloorFieldValues,
  RoofChanges,
  RoofFieldValues,
  RoomChanges,
  RoomFieldValues,
  StaircaseChanges,
  StaircaseFieldValues,
  UpdateFloorBody,
  UpdateRoofBody,
  UpdateRoomBody,
  UpdateStaircaseBody,
} from './parts.ts';
import { FileKind, UploadedFile } from './reads.ts';

// The estate's commands, events and subjects.

/** The person fields an estate keeps of each member (copied from identity). */
const EstateMemberDetails = z.object(personRecord()).partial();

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
    ...personRecord(),
    status: MembershipStatus,
  }),
  /** The invitee accepted (identity's OrganizationMemberAdded): a pending membership starts granting access. */
  ActivateEstateMember: z.object({ estate_id: Uuid, user_id: Uuid }),
  RemoveEstateMember: z.object({ estate_id: Uuid, user_id: Uuid, reason: z.enum(['REMOVED_FROM_ESTATE', 'LEFT_ORGANIZATION']) }),
  /** A member renamed or changed their email address in identity: the estate's copy follows. */
  UpdateEstateMemberDetails: z.object({ estate_id: Uuid, user_id: Uuid, changes: EstateMemberDetails }),
  /**
   * A finished calculation job's consequences for its estate (calculations' `CalculationJobFinished`), in
   * one append: the fields as the job filled them, a roof of each kind in `roofs` the estate lacks (under
   * the id given), and the quality label, whose event marks the job as applied.
   */
  ApplyCalculationJob: z.object({
    estate_id: Uuid,
    calculation_job_id: Uuid,
    changes: UpdateEstateBody,
    roofs: z.array(z.object({ roof_id: Uuid, fields: CreateRoofBody })),
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
    ...personRecord(),
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
   * The estate a calculation job describes (the gateway, before it creates the job; keyed by the job's
   * Idempotency-Key): created with the roofs the request names, or, for the organization's estate with
   * the same external_id, updated with them. The `estates` or the `calculations` scope. Body:
   * CreateDescribedEstateBody; reply JobEstate.
   */
  describeEstateForJob: 'cmd.estates.describe-estate-for-job',
} as const;
