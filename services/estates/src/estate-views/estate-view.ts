import type {
  EstateEvent,
  EstateFieldValues,
  EstateMember,
  EstateProviderType,
  FileKind,
  Floor,
  QualityLabel,
  Roof,
  Room,
  Staircase,
} from '@renopath/contracts';
import { applyChanges } from '../estate/estate.fields.ts';
import { parseEstateEvent } from '../estate/estate.events.ts';

/** A file or medium as stored: the blob key stays inside; the gateway turns it into a signed `url`. */
export interface StoredFile {
  id: string;
  estate_id: string;
  name: string;
  mimetype: string;
  size: number;
  blob_key: string;
  created_at: string;
}

/**
 * The detailed form of an estate as the read model keeps it. The same pure reducer builds it in the
 * projection and in a replay of the history (`as_of`, audit), so both answer the same thing.
 */
export interface EstateView {
  id: string;
  organization_id: string;
  estate_provider_type: EstateProviderType;
  referral_token: string;
  fields: EstateFieldValues;
  roofs: Roof[];
  floors: Floor[];
  files: StoredFile[];
  media: StoredFile[];
  members: EstateMember[];
  /** The quality of the estate's latest trajectory, which outranks the model's own estimate. */
  trajectory: { calculation_job_id: string; confidence_score: number; quality_label: QualityLabel } | null;
  created_at: string;
  updated_at: string;
}

/** The part of a recorded event the reducer reads. */
export interface ViewEvent {
  type: string;
  data: Record<string, unknown>;
  occurred_at: string;
}

const kindList = (kind: FileKind): 'files' | 'media' => (kind === 'FILE' ? 'files' : 'media');

/** Applies one event of an estate's stream; `null` before creation and after deletion. Unknown events change nothing. */
export function applyEstateEvent(view: EstateView | null, recorded: ViewEvent): EstateView | null {
  const event = parseEstateEvent(recorded);
  const at = recorded.occurred_at;
  if (event.type === 'EstateCreated') {
    const { estate_id, organization_id, estate_provider_type, referral_token, fields } = event.data;
    return {
      id: estate_id,
      organization_id,
      estate_provider_type,
      referral_token,
      fields,
      roofs: [],
      floors: [],
      files: [],
      media: [],
      members: [],
      trajectory: null,
      created_at: at,
      updated_at: at,
    };
  }
  if (!view) return null;
  const touched = { ...view, updated_at: at };
  switch (event.type) {
    case 'EstateUpdated':
      return { ...touched, fields: applyChanges(view.fields, event.data.changes) };
    case 'EstateDeleted':
      return null;

    case 'EstateTrajectoryQualityRecorded': {
      const { calculation_job_id, confidence_score, quality_label } = event.data;
      return { ...touched, trajectory: { calculation_job_id, confidence_score, quality_label } };
    }
    case 'RoofAdded':
    case 'RoofUpdated':
    case 'RoofRemoved':
    case 'FloorAdded':
    case 'FloorUpdated':
    case 'FloorRemoved':
    case 'RoomAdded':
    case 'RoomUpdated':
    case 'RoomRemoved':
    case 'StaircaseAdded':
    case 'StaircaseUpdated':
    case 'StaircaseRemoved':
      return applyPartEvent(view, touched, event, at);
    case 'EstateFileAdded':
    case 'EstateFileRemoved':
    case 'EstateMemberAdded':
    case 'EstateMemberActivated':
    case 'EstateMemberDetailsUpdated':
    case 'EstateMemberRemoved':
      return applyFileOrMemberEvent(view, touched, event, at);
    default:
      return view;
  }
}

type PartEvent = Extract<
  EstateEvent,
  {
    type:
      | 'RoofAdded'
      | 'RoofUpdated'
      | 'RoofRemoved'
      | 'FloorAdded'
      | 'FloorUpdated'
      | 'FloorRemoved'
      | 'RoomAdded'
      | 'RoomUpdated'
      | 'RoomRemoved'
      | 'StaircaseAdded'
      | 'StaircaseUpdated'
      | 'StaircaseRemoved';
  }
>;

/** Roofs, floors, and the rooms and staircases on a floor. */
function applyPartEvent(view: EstateView, touched: EstateView, event: PartEvent, at: string): EstateView {
  switch (event.type) {
    case 'RoofAdded':
      return {
        ...touched,
        roofs: [...view.roofs, { id: event.data.roof_id, ...event.data.fields, estate_id: view.id, created_at: at, updated_at: at }],
      };
    case 'RoofUpdated':
      return {
        ...touched,
        roofs: view.roofs.map((r) => (r.id === event.data.roof_id ? { ...applyChanges(r, event.data.changes), updated_at: at } : r)),
      };
    case 'RoofRemoved':
      return { ...touched, roofs: view.roofs.filter((r) => r.id !== event.data.roof_id) };

    case 'FloorAdded':
      return {
        ...touched,
        floors: [
          ...view.floors,
          { id: event.data.floor_id, ...event.data.fields, estate_id: view.id, rooms: [], staircases: [], created_at: at, updated_at: at },
        ],
      };
    case 'FloorUpdated':
      return withFloor(touched, event.data.floor_id, (f) => ({ ...applyChanges(f, event.data.changes), updated_at: at }));
    case 'FloorRemoved':
      return { ...touched, floors: view.floors.filter((f) => f.id !== event.data.floor_id) };

    case 'RoomAdded': {
      const { room_id, floor_id, fields } = event.data;
      const room: Room = { id: room_id, ...fields, estate_id: view.id, floor_id, created_at: at, updated_at: at };
      return withFloor(touched, floor_id, (f) => ({ ...f, rooms: [...f.rooms, room] }));
    }
    case 'RoomUpdated':
      return withFloor(touched, event.data.floor_id, (f) => ({
        ...f,
        rooms: f.rooms.map((r) => (r.id === event.data.room_id ? { ...applyChanges(r, event.data.changes), updated_at: at } : r)),
      }));
    case 'RoomRemoved':
      return withFloor(touched, event.data.floor_id, (f) => ({ ...f, rooms: f.rooms.filter((r) => r.id !== event.data.room_id) }));

    case 'StaircaseAdded': {
      const { staircase_id, floor_id, fields } = event.data;
      const staircase: Staircase = { id: staircase_id, ...fields, estate_id: view.id, floor_id, created_at: at, updated_at: at };
      return withFloor(touched, floor_id, (f) => ({ ...f, staircases: [...f.staircases, staircase] }));
    }
    case 'StaircaseUpdated':
      return withFloor(touched, event.data.floor_id, (f) => ({
        ...f,
        staircases: f.staircases.map((s) =>
          s.id === event.data.staircase_id ? { ...applyChanges(s, event.data.changes), updated_at: at } : s,
        ),
      }));
    case 'StaircaseRemoved':
      return withFloor(touched, event.data.floor_id, (f) => ({
        ...f,
        staircases: f.staircases.filter((s) => s.id !== event.data.staircase_id),
      }));
  }
}

type FileOrMemberEvent = Extract<
  EstateEvent,
  {
    type:
      | 'EstateFileAdded'
      | 'EstateFileRemoved'
      | 'EstateMemberAdded'
      | 'EstateMemberActivated'
      | 'EstateMemberDetailsUpdated'
      | 'EstateMemberRemoved';
  }
>;

function applyFileOrMemberEvent(view: EstateView, touched: EstateView, event: FileOrMemberEvent, at: string): EstateView {
  switch (event.type) {
    case 'EstateFileAdded': {
      const { file_id, kind, name, mimetype, size, blob_key } = event.data;
      const list = kindList(kind);
      return { ...touched, [list]: [...view[list], { id: file_id, name, mimetype, estate_id: view.id, size, blob_key, created_at: at }] };
    }
    case 'EstateFileRemoved': {
      const list = kindList(event.data.kind);
      return { ...touched, [list]: view[list].filter((f) => f.id !== event.data.file_id) };
    }

    case 'EstateMemberAdded': {
      const { user_id, email_address, first_name, last_name, status = 'ACTIVE' } = event.data;
      // The interface's member `id` is the person's user id: one person is one member of an estate.
      const member: EstateMember = {
        id: user_id,
        email_address,
        first_name,
        last_name,
        member_type: 'CLIENT',
        user_id,
        estate_id: view.id,
        status,
        created_at: at,
      };
      return { ...touched, members: [...view.members.filter((m) => m.user_id !== user_id), member] };
    }
    case 'EstateMemberActivated': {
      // The invitee accepted: their membership changed, not the estate, so its updated_at stays.
      const { user_id } = event.data;
      return { ...view, members: view.members.map((m) => (m.user_id === user_id ? { ...m, status: 'ACTIVE' as const } : m)) };
    }
    case 'EstateMemberDetailsUpdated': {
      const { user_id, changes } = event.data;
      // A member's own profile changed, not the estate: its updated_at stays.
      return { ...view, members: view.members.map((m) => (m.user_id === user_id ? { ...m, ...changes } : m)) };
    }
    case 'EstateMemberRemoved':
      return { ...touched, members: view.members.filter((m) => m.user_id !== event.data.user_id) };
  }
}

function withFloor(view: EstateView, floor_id: string, change: (floor: Floor) => Floor): EstateView {
  return { ...view, floors: view.floors.map((f) => (f.id === floor_id ? change(f) : f)) };
}

/** Replays events (oldest first) into the estate they describe. */
export function replayEstate(events: Iterable<ViewEvent>): EstateView | null {
  let view: EstateView | null = null;
  for (const event of events) view = applyEstateEvent(view, event);
  return view;
}
