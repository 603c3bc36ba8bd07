import type { EstateEvent, RenovationEstateSnapshot } from '@renopath/contracts';

/**
 * This context's own copy of the estates it prices (docs/architecture.md, "Events between contexts"):
 * folded from the estates context's events, never asked for on the request path.
 */
export type Snapshot = RenovationEstateSnapshot;
type Floor = Snapshot['floors'][number];

const NESTED = ['address', 'commercial_context', 'energy_context', 'dimensions'] as const;

/** A partial change merged into a record; nested objects (`dimensions`, `address` ...) merge field by field. */
function merge<T extends Record<string, unknown>>(
  current: T,
  changes: Record<string, unknown>,
  nested: readonly string[] = ['dimensions'],
): T {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    next[key] = nested.includes(key) && value !== null && typeof value === 'object' ? { ...(current[key] as object), ...value } : value;
  }
  return next as T;
}

const mapFloor = (s: Snapshot, floor_id: string, fn: (floor: Floor) => Floor): Snapshot => ({
  ...s,
  floors: s.floors.map((f) => (f.id === floor_id ? fn(f) : f)),
});

/** The snapshot after one estates event (pure); null before the estate exists. Events it does not need leave it as it was. */
export function applyEstateEvent(s: Snapshot | null, event: EstateEvent): Snapshot | null {
  if (event.type === 'EstateCreated') {
    const { estate_id, organization_id, fields } = event.data;
    return { estate_id, organization_id, fields, roofs: [], floors: [], members: [], deleted: false };
  }
  if (!s) return s;
  switch (event.type) {
    case 'EstateUpdated':
      return { ...s, fields: merge(s.fields, event.data.changes as Record<string, unknown>, NESTED) };
    case 'EstateDeleted':
      return { ...s, deleted: true };
    case 'RoofAdded':
      return { ...s, roofs: [...s.roofs, { id: event.data.roof_id, ...event.data.fields }] };
    case 'RoofUpdated':
      return { ...s, roofs: s.roofs.map((r) => (r.id === event.data.roof_id ? merge(r, event.data.changes) : r)) };
    case 'RoofRemoved':
      return { ...s, roofs: s.roofs.filter((r) => r.id !== event.data.roof_id) };
    case 'FloorAdded':
      return { ...s, floors: [...s.floors, { id: event.data.floor_id, ...event.data.fields, rooms: [], staircases: [] }] };
    case 'FloorUpdated':
      return mapFloor(s, event.data.floor_id, (f) => merge(f, event.data.changes));
    case 'FloorRemoved':
      return { ...s, floors: s.floors.filter((f) => f.id !== event.data.floor_id) };
    case 'RoomAdded': {
      const room = { id: event.data.room_id, ...event.data.fields };
      return mapFloor(s, event.data.floor_id, (f) => ({ ...f, rooms: [...f.rooms, room] }));
    }
    case 'RoomUpdated': {
      const { room_id, changes } = event.data;
      return mapFloor(s, event.data.floor_id, (f) => ({ ...f, rooms: f.rooms.map((r) => (r.id === room_id ? merge(r, changes) : r)) }));
    }
    case 'RoomRemoved':
      return mapFloor(s, event.data.floor_id, (f) => ({ ...f, rooms: f.rooms.filter((r) => r.id !== event.data.room_id) }));
    case 'StaircaseAdded': {
      const staircase = { id: event.data.staircase_id, ...event.data.fields };
      return mapFloor(s, event.data.floor_id, (f) => ({ ...f, staircases: [...f.staircases, staircase] }));
    }
    case 'StaircaseUpdated': {
      const { staircase_id, changes } = event.data;
      return mapFloor(s, event.data.floor_id, (f) => ({
        ...f,
        staircases: f.staircases.map((x) => (x.id === staircase_id ? merge(x, changes) : x)),
      }));
    }
    case 'StaircaseRemoved':
      return mapFloor(s, event.data.floor_id, (f) => ({ ...f, staircases: f.staircases.filter((x) => x.id !== event.data.staircase_id) }));
    case 'EstateMemberAdded':
      // A pending invitation grants nothing until it is accepted (EstateMemberActivated).
      if (event.data.status === 'PENDING') return s;
      return s.members.includes(event.data.user_id) ? s : { ...s, members: [...s.members, event.data.user_id] };
    case 'EstateMemberActivated':
      return s.members.includes(event.data.user_id) ? s : { ...s, members: [...s.members, event.data.user_id] };
    case 'EstateMemberRemoved':
      return { ...s, members: s.members.filter((id) => id !== event.data.user_id) };
    default:
      return s;
  }
}

/** Events after which the renovations of the estate are recomputed (files, media and members change no figure). */
export const FIGURE_EVENTS: ReadonlySet<EstateEvent['type']> = new Set([
  'EstateUpdated',
  'RoofAdded',
  'RoofUpdated',
  'RoofRemoved',
  'FloorAdded',
  'FloorUpdated',
  'FloorRemoved',
  'RoomAdded',
  'RoomUpdated',
  'RoomRemoved',
  'StaircaseAdded',
  'StaircaseUpdated',
  'StaircaseRemoved',
]);

export function findRoof(s: Snapshot, roof_id: string) {
  return s.roofs.find((r) => r.id === roof_id) ?? null;
}

/** A room or staircase by id, with the floor it is on. */
export function findOnFloor(s: Snapshot, kind: 'rooms' | 'staircases', id: string) {
  for (const floor of s.floors) {
    const part = (floor[kind] as Array<{ id: string }>).find((p) => p.id === id);
    if (part) return { floor, part };
  }
  return null;
}
