import { DomainError, notFound } from '@renopath/platform';
import { isPostalCodeOf } from '@renopath/energy';
import type { Decider } from '@renopath/platform/service/decider.ts';
import {
  EstateFieldValues,
  FloorFieldValues,
  RoofFieldValues,
  RoomFieldValues,
  StaircaseFieldValues,
  type CreateEstateBody,
  type EstateChanges,
  type EstateCommand,
  type EstateEvent,
  type FileKind,
  type FloorChanges,
  type MembershipStatus,
  type RoofChanges,
  type RoomChanges,
  type StaircaseChanges,
  type UpdateEstateBody,
} from '@renopath/contracts';
import { applyChanges, changesOf, emptyOf, filledFrom } from './estate.fields.ts';

/**
 * One stream per estate (`estate-<id>`) holds the estate and all its parts, files and members, so
 * every rule that spans them (a room belongs to an existing floor, deleting a floor removes its
 * rooms) is checked against one consistent state.
 */
export const estateStream = (estate_id: string) => `estate-${estate_id}`;

export interface FloorState {
  fields: FloorFieldValues;
  rooms: Record<string, RoomFieldValues>;
  staircases: Record<string, StaircaseFieldValues>;
}

export interface EstateState {
  status: 'NONE' | 'ACTIVE' | 'DELETED';
  organization_id: string;
  fields: EstateFieldValues;
  roofs: Record<string, RoofFieldValues>;
  floors: Record<string, FloorState>;
  files: Record<string, { kind: FileKind; blob_key: string }>;
  /** user id -> status; kept after deletion so the history stays readable by the estate's members. A PENDING member reads nothing. */
  members: Record<string, MembershipStatus>;
  /** The calculation jobs whose consequences the estate holds (their quality label recorded): each applied once. */
  calculation_jobs: Record<string, true>;
}

/** The members who hold access: invited ones only once they accepted. */
export const activeMembers = (state: Pick<EstateState, 'members'>): string[] =>
  Object.entries(state.members)
    .filter(([, status]) => status === 'ACTIVE')
    .map(([user_id]) => user_id);

/** Every estate field unknown: null, lists empty, nested objects with every field null. */
export const EMPTY_ESTATE_FIELDS: EstateFieldValues = Object.freeze(emptyOf(EstateFieldValues.shape) as EstateFieldValues);
const ROOF = emptyOf(RoofFieldValues.shape) as RoofFieldValues;
const FLOOR = emptyOf(FloorFieldValues.shape) as FloorFieldValues;
const ROOM = emptyOf(RoomFieldValues.shape) as RoomFieldValues;
const STAIRCASE = emptyOf(StaircaseFieldValues.shape) as StaircaseFieldValues;

const KIND_NAME: Record<FileKind, string> = { FILE: 'file', MEDIA: 'medium' };

/** Fills the fields a create body left out (unknown: null) and resolves partial nested objects. */
export function estateFieldsFrom(body: Omit<CreateEstateBody, 'estate_provider_type'>): EstateFieldValues {
  return filledFrom(EMPTY_ESTATE_FIELDS, body);
}

/** The changes a PATCH makes: only fields whose value differs; nested objects merge field by field. */
export function estateChanges(current: EstateFieldValues, body: UpdateEstateBody): EstateChanges {
  return changesOf(current, body, EMPTY_ESTATE_FIELDS) as EstateChanges;
}

/** The estate's fields after a recorded change. */
export const withEstateChanges = (fields: EstateFieldValues, changes: EstateChanges): EstateFieldValues => applyChanges(fields, changes);

const partFields = <F extends object>(template: F, given: object): F => filledFrom(template, given);
const partChanges = <C, F extends object = object>(current: F, given: object, template: F): C => changesOf(current, given, template) as C;

/**
 * Rules across fields, checked on the estate as it would be after the change, so a PATCH may fix
 * two related fields at once. Plain 400s: the contract (docs/http-contract.md) keeps 422 for the job request alone.
 */
export function estateRuleViolations(f: EstateFieldValues): string[] {
  const problems: string[] = [];
  const { zip_code, country } = f.address;
  if (zip_code !== null) {
    // The same rule as the trajectory request's (energy model): one definition of a BE and an NL postal code,
    // a Dutch one also as its four digits alone (portfolio data), since a job's estate takes the request's code.
    if (country === 'BE' && !isPostalCodeOf(zip_code, 'BE')) problems.push('address.zip_code must be a Belgian postal code (4 digits)');
    else if (country === 'NL' && !isPostalCodeOf(zip_code, 'NL', { numericNl: true }))
      problems.push('address.zip_code must be a Dutch postal code (4 digits, optionally followed by 2 letters)');
    else if (country === null && !isPostalCodeOf(zip_code, 'BE') && !isPostalCodeOf(zip_code, 'NL')) {
      problems.push('address.zip_code must be a Belgian (4 digits) or Dutch (4 digits and 2 letters) postal code');
    }
  }
  if (f.year_built !== null && f.year_renovated !== null && f.year_renovated < f.year_built) {
    problems.push('year_renovated must not be before year_built');
  }
  const e = f.energy_context;
  if (e.has_cavity_wall === false && (e.cavity_wall_width !== null || e.has_cavity_wall_insulation === true)) {
    problems.push(
      'energy_context.cavity_wall_width and energy_context.has_cavity_wall_insulation need energy_context.has_cavity_wall true',
    );
  }
  if (
    e.basement_type === 'NONE' &&
    (e.basement_ceiling_surface !== null || e.basement_ceiling_height !== null || e.floor_above_basement_insulation_type !== null)
  ) {
    problems.push(
      'energy_context.basement_ceiling_surface, basement_ceiling_height and floor_above_basement_insulation_type need a basement_type other than NONE',
    );
  }
  return problems;
}

function checkRules(fields: EstateFieldValues) {
  const problems = estateRuleViolations(fields);
  if (problems.length) throw new DomainError(400, problems);
}

function requireActive(state: EstateState) {
  if (state.status !== 'ACTIVE') throw notFound('estate');
}

function requireFloor(state: EstateState, floor_id: string): FloorState {
  requireActive(state);
  const floor = state.floors[floor_id];
  if (!floor) throw notFound('floor');
  return floor;
}

export const estateDecider: Decider<EstateCommand, EstateEvent, EstateState> = {
  initialState: () => ({
    status: 'NONE',
    organization_id: '',
    fields: EMPTY_ESTATE_FIELDS,
    roofs: {},
    floors: {},
    files: {},
    members: {},
    calculation_jobs: {},
  }),

  // One function per command below; this only dispatches (emmett's shape).
  decide(command, state): EstateEvent[] {
    switch (command.type) {
      case 'CreateEstate':
        return createEstate(command, state);
      case 'UpdateEstate':
        return updateEstate(command, state);
      case 'DeleteEstate':
        return deleteEstate(command, state);
      case 'AddRoof':
        return addRoof(command, state);
      case 'UpdateRoof':
        return updateRoof(command, state);
      case 'RemoveRoof':
        return removeRoof(command, state);
      case 'AddFloor':
        return addFloor(command, state);
      case 'UpdateFloor':
        return updateFloor(command, state);
      case 'RemoveFloor':
        return removeFloor(command, state);
      case 'AddRoom':
        return addRoom(command, state);
      case 'UpdateRoom':
        return updateRoom(command, state);
      case 'RemoveRoom':
        return removeRoom(command, state);
      case 'AddStaircase':
        return addStaircase(command, state);
      case 'UpdateStaircase':
        return updateStaircase(command, state);
      case 'RemoveStaircase':
        return removeStaircase(command, state);
      case 'AddFile':
        return addFile(command, state);
      case 'RemoveFile':
        return removeFile(command, state);
      case 'AddEstateMember':
        return addEstateMember(command, state);
      case 'ActivateEstateMember':
        return activateEstateMember(command, state);
      case 'UpdateEstateMemberDetails':
        return updateEstateMemberDetails(command, state);
      case 'RemoveEstateMember':
        return removeEstateMember(command, state);
      case 'ApplyCalculationJob':
        return applyCalculationJob(command, state);
    }
  },

  evolve(state, event): EstateState {
    switch (event.type) {
      case 'EstateCreated':
        return { ...state, status: 'ACTIVE', organization_id: event.data.organization_id, fields: event.data.fields };
      case 'EstateUpdated':
        return { ...state, fields: withEstateChanges(state.fields, event.data.changes) };
      case 'EstateDeleted':
        return { ...state, status: 'DELETED' };
      case 'RoofAdded':
        return { ...state, roofs: { ...state.roofs, [event.data.roof_id]: event.data.fields } };
      case 'RoofUpdated': {
        const roof = state.roofs[event.data.roof_id];
        return roof ? { ...state, roofs: { ...state.roofs, [event.data.roof_id]: applyChanges(roof, event.data.changes) } } : state;
      }
      case 'RoofRemoved':
        return { ...state, roofs: without(state.roofs, event.data.roof_id) };
      case 'FloorAdded':
        return { ...state, floors: { ...state.floors, [event.data.floor_id]: { fields: event.data.fields, rooms: {}, staircases: {} } } };
      case 'FloorUpdated':
        return withFloor(state, event.data.floor_id, (f) => ({ ...f, fields: applyChanges(f.fields, event.data.changes) }));
      case 'FloorRemoved':
        return { ...state, floors: without(state.floors, event.data.floor_id) };
      case 'RoomAdded':
        return withFloor(state, event.data.floor_id, (f) => ({ ...f, rooms: { ...f.rooms, [event.data.room_id]: event.data.fields } }));
      case 'RoomUpdated':
        return withFloor(state, event.data.floor_id, (f) => {
          const room = f.rooms[event.data.room_id];
          return room ? { ...f, rooms: { ...f.rooms, [event.data.room_id]: applyChanges(room, event.data.changes) } } : f;
        });
      case 'RoomRemoved':
        return withFloor(state, event.data.floor_id, (f) => ({ ...f, rooms: without(f.rooms, event.data.room_id) }));
      case 'StaircaseAdded':
        return withFloor(state, event.data.floor_id, (f) => ({
          ...f,
          staircases: { ...f.staircases, [event.data.staircase_id]: event.data.fields },
        }));
      case 'StaircaseUpdated':
        return withFloor(state, event.data.floor_id, (f) => {
          const staircase = f.staircases[event.data.staircase_id];
          return staircase
            ? { ...f, staircases: { ...f.staircases, [event.data.staircase_id]: applyChanges(staircase, event.data.changes) } }
            : f;
        });
      case 'StaircaseRemoved':
        return withFloor(state, event.data.floor_id, (f) => ({ ...f, staircases: without(f.staircases, event.data.staircase_id) }));
      case 'EstateFileAdded':
        return { ...state, files: { ...state.files, [event.data.file_id]: { kind: event.data.kind, blob_key: event.data.blob_key } } };
      case 'EstateFileRemoved':
        return { ...state, files: without(state.files, event.data.file_id) };
      case 'EstateMemberAdded':
        // Events of earlier versions carry no status: they knew only active members.
        return { ...state, members: { ...state.members, [event.data.user_id]: event.data.status ?? 'ACTIVE' } };
      case 'EstateMemberActivated':
        return { ...state, members: { ...state.members, [event.data.user_id]: 'ACTIVE' } };
      case 'EstateMemberRemoved':
        return { ...state, members: without(state.members, event.data.user_id) };
      case 'EstateTrajectoryQualityRecorded':
        return { ...state, calculation_jobs: { ...state.calculation_jobs, [event.data.calculation_job_id]: true } };
      default:
        return state;
    }
  },
};

type Command<T extends EstateCommand['type']> = Extract<EstateCommand, { type: T }>;

// The estate itself.
function createEstate(command: Command<'CreateEstate'>, state: EstateState): EstateEvent[] {
  if (state.status !== 'NONE') throw new DomainError(409, ['estate already exists']);
  const fields = estateFieldsFrom(command.fields);
  checkRules(fields);
  const { estate_id, organization_id, estate_provider_type, referral_token } = command;
  const roofs = command.roofs ?? [];
  if (new Set(roofs.map((r) => r.roof_id)).size !== roofs.length) throw new DomainError(409, ['roof already exists']);
  return [
    { type: 'EstateCreated', data: { estate_id, organization_id, estate_provider_type, referral_token, fields } },
    ...roofs.map((r) => ({
      type: 'RoofAdded' as const,
      data: { estate_id, roof_id: r.roof_id, fields: partFields(ROOF, r.fields) },
    })),
  ];
}

function updateEstate(command: Command<'UpdateEstate'>, state: EstateState): EstateEvent[] {
  requireActive(state);
  const changes = estateChanges(state.fields, command.changes);
  if (Object.keys(changes).length === 0) return [];
  checkRules(withEstateChanges(state.fields, changes));
  return [{ type: 'EstateUpdated', data: { estate_id: command.estate_id, changes } }];
}

function deleteEstate(command: Command<'DeleteEstate'>, state: EstateState): EstateEvent[] {
  requireActive(state);
  const estate_id = command.estate_id;
  const events: EstateEvent[] = [];
  for (const roof_id of Object.keys(state.roofs)) events.push({ type: 'RoofRemoved', data: { estate_id, roof_id } });
  for (const floor_id of Object.keys(state.floors)) events.push(...floorRemoval(estate_id, floor_id, state.floors[floor_id]!));
  for (const [file_id, file] of Object.entries(state.files)) {
    events.push({ type: 'EstateFileRemoved', data: { estate_id, file_id, kind: file.kind, blob_key: file.blob_key } });
  }
  events.push({ type: 'EstateDeleted', data: { estate_id, organization_id: state.organization_id } });
  return events;
}

// The roofs.
function addRoof(command: Command<'AddRoof'>, state: EstateState): EstateEvent[] {
  requireActive(state);
  if (state.roofs[command.roof_id]) throw new DomainError(409, ['roof already exists']);
  return [
    { type: 'RoofAdded', data: { estate_id: command.estate_id, roof_id: command.roof_id, fields: partFields(ROOF, command.fields) } },
  ];
}

function updateRoof(command: Command<'UpdateRoof'>, state: EstateState): EstateEvent[] {
  requireActive(state);
  const roof = state.roofs[command.roof_id];
  if (!roof) throw notFound('roof');
  const changes = partChanges<RoofChanges>(roof, command.changes, ROOF);
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'RoofUpdated', data: { estate_id: command.estate_id, roof_id: command.roof_id, changes } }];
}

function removeRoof(command: Command<'RemoveRoof'>, state: EstateState): EstateEvent[] {
  requireActive(state);
  if (!state.roofs[command.roof_id]) throw notFound('roof');
  return [{ type: 'RoofRemoved', data: { estate_id: command.estate_id, roof_id: command.roof_id } }];
}

// The floors, and the rooms and staircases on them.
function addFloor(command: Command<'AddFloor'>, state: EstateState): EstateEvent[] {
  requireActive(state);
  if (state.floors[command.floor_id]) throw new DomainError(409, ['floor already exists']);
  return [
    {
      type: 'FloorAdded',
      data: { estate_id: command.estate_id, floor_id: command.floor_id, fields: partFields(FLOOR, command.fields) },
    },
  ];
}

function updateFloor(command: Command<'UpdateFloor'>, state: EstateState): EstateEvent[] {
  const floor = requireFloor(state, command.floor_id);
  const changes = partChanges<FloorChanges>(floor.fields, command.changes, FLOOR);
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'FloorUpdated', data: { estate_id: command.estate_id, floor_id: command.floor_id, changes } }];
}

function removeFloor(command: Command<'RemoveFloor'>, state: EstateState): EstateEvent[] {
  const floor = requireFloor(state, command.floor_id);
  return floorRemoval(command.estate_id, command.floor_id, floor);
}

function addRoom(command: Command<'AddRoom'>, state: EstateState): EstateEvent[] {
  const floor = requireFloor(state, command.floor_id);
  if (floor.rooms[command.room_id]) throw new DomainError(409, ['room already exists']);
  const { estate_id, floor_id, room_id } = command;
  return [{ type: 'RoomAdded', data: { estate_id, floor_id, room_id, fields: partFields(ROOM, command.fields) } }];
}

function updateRoom(command: Command<'UpdateRoom'>, state: EstateState): EstateEvent[] {
  const room = requireFloor(state, command.floor_id).rooms[command.room_id];
  if (!room) throw notFound('room');
  const changes = partChanges<RoomChanges>(room, command.changes, ROOM);
  if (Object.keys(changes).length === 0) return [];
  const { estate_id, floor_id, room_id } = command;
  return [{ type: 'RoomUpdated', data: { estate_id, floor_id, room_id, changes } }];
}

function removeRoom(command: Command<'RemoveRoom'>, state: EstateState): EstateEvent[] {
  if (!requireFloor(state, command.floor_id).rooms[command.room_id]) throw notFound('room');
  const { estate_id, floor_id, room_id } = command;
  return [{ type: 'RoomRemoved', data: { estate_id, floor_id, room_id } }];
}

function addStaircase(command: Command<'AddStaircase'>, state: EstateState): EstateEvent[] {
  const floor = requireFloor(state, command.floor_id);
  if (floor.staircases[command.staircase_id]) throw new DomainError(409, ['staircase already exists']);
  const { estate_id, floor_id, staircase_id } = command;
  return [{ type: 'StaircaseAdded', data: { estate_id, floor_id, staircase_id, fields: partFields(STAIRCASE, command.fields) } }];
}

function updateStaircase(command: Command<'UpdateStaircase'>, state: EstateState): EstateEvent[] {
  const staircase = requireFloor(state, command.floor_id).staircases[command.staircase_id];
  if (!staircase) throw notFound('staircase');
  const changes = partChanges<StaircaseChanges>(staircase, command.changes, STAIRCASE);
  if (Object.keys(changes).length === 0) return [];
  const { estate_id, floor_id, staircase_id } = command;
  return [{ type: 'StaircaseUpdated', data: { estate_id, floor_id, staircase_id, changes } }];
}

function removeStaircase(command: Command<'RemoveStaircase'>, state: EstateState): EstateEvent[] {
  if (!requireFloor(state, command.floor_id).staircases[command.staircase_id]) throw notFound('staircase');
  const { estate_id, floor_id, staircase_id } = command;
  return [{ type: 'StaircaseRemoved', data: { estate_id, floor_id, staircase_id } }];
}

// Files and media.
function addFile(command: Command<'AddFile'>, state: EstateState): EstateEvent[] {
  requireActive(state);
  if (state.files[command.file_id]) throw new DomainError(409, [`${KIND_NAME[command.kind]} already exists`]);
  const { blob_key, name, mimetype, size } = command.upload;
  return [
    {
      type: 'EstateFileAdded',
      data: { estate_id: command.estate_id, file_id: command.file_id, kind: command.kind, name, mimetype, size, blob_key },
    },
  ];
}

function removeFile(command: Command<'RemoveFile'>, state: EstateState): EstateEvent[] {
  requireActive(state);
  const file = state.files[command.file_id];
  // A medium is not reachable under /files and a file not under /media.
  if (!file || file.kind !== command.kind) throw notFound(KIND_NAME[command.kind]);
  return [
    {
      type: 'EstateFileRemoved',
      data: { estate_id: command.estate_id, file_id: command.file_id, kind: file.kind, blob_key: file.blob_key },
    },
  ];
}

// Members, some changes replayed from identity's events.
function addEstateMember(command: Command<'AddEstateMember'>, state: EstateState): EstateEvent[] {
  requireActive(state);
  const { estate_id, user_id, email_address, first_name, last_name, status } = command;
  const current = state.members[user_id];
  if (current === 'ACTIVE') return [];
  // Pending, and now an active member of the organization (they accepted elsewhere): the membership starts.
  if (current === 'PENDING')
    return status === 'ACTIVE'
      ? [{ type: 'EstateMemberActivated', data: { estate_id, organization_id: state.organization_id, user_id } }]
      : [];
  return [
    {
      type: 'EstateMemberAdded',
      data: { estate_id, organization_id: state.organization_id, user_id, email_address, first_name, last_name, status },
    },
  ];
}

function activateEstateMember(command: Command<'ActivateEstateMember'>, state: EstateState): EstateEvent[] {
  // Replayed from identity's events: a member no longer invited, or already active, is nothing to do.
  if (state.status !== 'ACTIVE' || state.members[command.user_id] !== 'PENDING') return [];
  return [
    {
      type: 'EstateMemberActivated',
      data: { estate_id: command.estate_id, organization_id: state.organization_id, user_id: command.user_id },
    },
  ];
}

function updateEstateMemberDetails(command: Command<'UpdateEstateMemberDetails'>, state: EstateState): EstateEvent[] {
  // Replayed from identity's events: a member who left, or an estate that is gone, is nothing to do.
  // A pending invitee's own profile is not the inviting organization's to see: only active members follow.
  if (state.status !== 'ACTIVE' || state.members[command.user_id] !== 'ACTIVE' || Object.keys(command.changes).length === 0) return [];
  const { estate_id, user_id, changes } = command;
  return [{ type: 'EstateMemberDetailsUpdated', data: { estate_id, organization_id: state.organization_id, user_id, changes } }];
}

function removeEstateMember(command: Command<'RemoveEstateMember'>, state: EstateState): EstateEvent[] {
  const known = state.status === 'ACTIVE' && state.members[command.user_id];
  // Leaving the organization is replayed from another context's events: nothing to do is not an error.
  if (!known) {
    if (command.reason === 'LEFT_ORGANIZATION') return [];
    requireActive(state);
    throw notFound('member');
  }
  const { estate_id, user_id, reason } = command;
  return [{ type: 'EstateMemberRemoved', data: { estate_id, organization_id: state.organization_id, user_id, reason } }];
}

/**
 * A finished calculation job's consequences (estates follows calculations' event): the fields as the
 * job filled them, a roof of each kind its steps need that the estate lacks, and the quality label,
 * whose event marks the job applied, so a redelivery writes nothing. A deleted estate takes nothing;
 * filled fields the estate's rules refuse are left out rather than the label and roofs with them.
 */
function applyCalculationJob(command: Command<'ApplyCalculationJob'>, state: EstateState): EstateEvent[] {
  const { estate_id, calculation_job_id, confidence_score, quality_label } = command;
  if (state.status !== 'ACTIVE' || state.calculation_jobs[calculation_job_id]) return [];
  const events: EstateEvent[] = [];
  const changes = estateChanges(state.fields, command.changes);
  if (Object.keys(changes).length > 0 && estateRuleViolations(withEstateChanges(state.fields, changes)).length === 0) {
    events.push({ type: 'EstateUpdated', data: { estate_id, changes } });
  }
  const kinds = new Set(Object.values(state.roofs).map((r) => r.estate_roof_type));
  for (const roof of command.roofs) {
    if (kinds.has(roof.fields.estate_roof_type) || state.roofs[roof.roof_id]) continue;
    kinds.add(roof.fields.estate_roof_type);
    events.push({ type: 'RoofAdded', data: { estate_id, roof_id: roof.roof_id, fields: partFields(ROOF, roof.fields) } });
  }
  events.push({ type: 'EstateTrajectoryQualityRecorded', data: { estate_id, calculation_job_id, confidence_score, quality_label } });
  return events;
}

/** Removing a floor removes its rooms and staircases first, each as its own event (renovations cascade on them). */
function floorRemoval(estate_id: string, floor_id: string, floor: FloorState): EstateEvent[] {
  return [
    ...Object.keys(floor.rooms).map((room_id): EstateEvent => ({ type: 'RoomRemoved', data: { estate_id, floor_id, room_id } })),
    ...Object.keys(floor.staircases).map(
      (staircase_id): EstateEvent => ({ type: 'StaircaseRemoved', data: { estate_id, floor_id, staircase_id } }),
    ),
    { type: 'FloorRemoved', data: { estate_id, floor_id } },
  ];
}

function withFloor(state: EstateState, floor_id: string, change: (floor: FloorState) => FloorState): EstateState {
  const floor = state.floors[floor_id];
  return floor ? { ...state, floors: { ...state.floors, [floor_id]: change(floor) } } : state;
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _removed, ...rest } = record;
  return rest;
}
