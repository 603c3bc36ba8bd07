import { createHash } from 'node:crypto';
import { DomainError, notFound } from '@renopath/platform';
import type { Decider } from '@renopath/platform/service/decider.ts';
import type {
  IncomeCategory,
  ItemPlacement,
  RenovationCommand,
  RenovationEstateSnapshot,
  RenovationEvent,
  RenovationItemFacts,
  RenovationValuation,
} from '@renopath/contracts';
import { findOnFloor, findRoof } from '../estate-mirror/estate-mirror.ts';
import { knownPropertyOfEstate } from '../estate-mirror/property.ts';
import { refusalOf, rootTypeOf, valuate, type ValuedItem } from './valuation.ts';

/**
 * A renovation: its client items in four scopes, and the figures that follow from them and the
 * estate (`RenovationValued`, recomputed on every change of either). Pure: the estate as this
 * context knows it, the price year and new ids arrive in the command.
 */
export interface ItemState extends ValuedItem {
  root_renovation_component_type: string;
  /** Items from a trajectory: the step's order in the plan. */
  step?: number;
}

export interface RenovationState {
  status: 'NONE' | 'ACTIVE' | 'DELETED';
  renovation_id: string | null;
  estate_id: string | null;
  organization_id: string | null;
  items: ItemState[];
  valuation: RenovationValuation | null;
  /** Renovations made from a trajectory: the job and the fingerprint of the body that made it. */
  trajectory: { calculation_job_id: string; fingerprint: string } | null;
  income_category: IncomeCategory | null;
  /** A calculation job's renovation that was not made (`RenovationTrajectoryDeclined`): said once. */
  declined: boolean;
}

export const RENOVATION_STREAM_PREFIX = 'renovation-';
export const renovationStream = (renovation_id: string) => `${RENOVATION_STREAM_PREFIX}${renovation_id}`;

function requireActive(state: RenovationState) {
  if (state.status !== 'ACTIVE') throw notFound('renovation');
}

/** The part an item is linked to must be a part of the estate, on the floor the path names (404 otherwise, like another tenant's id). */
export function checkPlacement(estate: RenovationEstateSnapshot, placement: ItemPlacement): void {
  switch (placement.scope) {
    case 'GENERAL':
      return;
    case 'ROOF':
      if (!placement.roof_id || !findRoof(estate, placement.roof_id)) throw notFound('roof');
      return;
    case 'ROOM': {
      const found = placement.room_id ? findOnFloor(estate, 'rooms', placement.room_id) : null;
      if (!found || (placement.floor_id !== null && found.floor.id !== placement.floor_id)) throw notFound('room');
      return;
    }
    case 'STAIRCASE': {
      const found = placement.staircase_id ? findOnFloor(estate, 'staircases', placement.staircase_id) : null;
      if (!found || (placement.floor_id !== null && found.floor.id !== placement.floor_id)) throw notFound('staircase');
    }
  }
}

/** Whether the part an item is linked to is still there. */
function partExists(estate: RenovationEstateSnapshot, placement: ItemPlacement): boolean {
  try {
    checkPlacement(estate, placement);
    return true;
  } catch {
    return false;
  }
}

const samePlace = (a: ItemPlacement, b: ItemPlacement) =>
  a.scope === b.scope && a.roof_id === b.roof_id && a.room_id === b.room_id && a.staircase_id === b.staircase_id;

function findItem(state: RenovationState, item_id: string, placement: ItemPlacement): ItemState {
  const item = state.items.find((i) => i.item_id === item_id);
  if (!item || !samePlace(item.placement, placement)) throw notFound('renovation item');
  return item;
}

function refuse(estate: RenovationEstateSnapshot, placement: ItemPlacement, type: string, year: number) {
  const refusal = refusalOf(estate, placement, type, year);
  if (refusal) throw new DomainError(400, [refusal]);
}

/** `RenovationValued` when the figures after the change differ from the last ones. */
function revalued(state: RenovationState, items: readonly ValuedItem[], estate: RenovationEstateSnapshot, year: number): RenovationEvent[] {
  const valuation = valuate(
    state.renovation_id!,
    items,
    estate,
    year,
    state.income_category ? { income_category: state.income_category } : {},
  );
  if (state.valuation && JSON.stringify(state.valuation) === JSON.stringify(valuation)) return [];
  return [{ type: 'RenovationValued', data: { renovation_id: state.renovation_id!, valuation } }];
}

type Command<T extends RenovationCommand['type']> = Extract<RenovationCommand, { type: T }>;

type FromTrajectory = Command<'CreateRenovationFromTrajectory'>;

/** What makes two create-from-trajectory commands the same request (the estate and year may have moved on between retries). */
export function trajectoryFingerprint(command: FromTrajectory): string {
  const { estate, renovation_name, calculation_job_id, items, income_category } = command;
  const canonical = JSON.stringify({
    estate_id: estate.estate_id,
    renovation_name,
    calculation_job_id,
    income_category,
    items: items.map((i) => [
      i.item_id,
      i.renovation_component_type,
      i.placement.scope,
      i.placement.roof_id,
      i.placement.floor_id,
      i.placement.room_id,
      i.placement.staircase_id,
      i.count,
      i.quantity,
      i.step,
    ]),
  });
  return createHash('sha256').update(canonical).digest('hex');
}

function createFromTrajectory(command: FromTrajectory, state: RenovationState): RenovationEvent[] {
  const fingerprint = trajectoryFingerprint(command);
  if (state.status !== 'NONE') {
    if (state.trajectory?.fingerprint === fingerprint) return [];
    throw new DomainError(409, [`renovation ${command.renovation_id} already exists with other contents`]);
  }
  const { estate, year, renovation_id, items } = command;
  if (estate.deleted) throw notFound('estate');
  const seen = new Set<string>();
  const known = knownPropertyOfEstate(estate);
  for (const [i, item] of items.entries()) {
    if (seen.has(item.item_id)) throw new DomainError(400, [`items[${i}].item_id ${item.item_id} is used twice`]);
    seen.add(item.item_id);
    checkPlacement(estate, item.placement);
    const refusal = refusalOf(estate, item.placement, item.renovation_component_type, year, known);
    if (refusal) throw new DomainError(400, [`items[${i}]: ${refusal}`]);
  }
  const income = command.income_category ? { income_category: command.income_category } : {};
  const states: ItemState[] = items.map((i) => ({
    item_id: i.item_id,
    placement: i.placement,
    renovation_component_type: i.renovation_component_type,
    count: i.count,
    root_renovation_component_type: rootTypeOf(i.renovation_component_type),
    quantity: i.quantity,
    step: i.step,
  }));
  // The items ride on the created event: one decision, one event (a job's plan makes about six items).
  const created: RenovationEvent = {
    type: 'RenovationCreated',
    data: {
      renovation_id,
      estate_id: estate.estate_id,
      organization_id: estate.organization_id,
      renovation_name: command.renovation_name,
      trajectory: { calculation_job_id: command.calculation_job_id, fingerprint },
      ...income,
      items: states.map((i) => ({
        item_id: i.item_id,
        placement: i.placement,
        root_renovation_component_type: i.root_renovation_component_type,
        renovation_component_type: i.renovation_component_type,
        count: i.count,
        quantity: i.quantity ?? null,
        ...(i.step !== undefined ? { step: i.step } : {}),
      })),
    },
  };
  const valuation = valuate(renovation_id, states, estate, year, income);
  return [created, { type: 'RenovationValued', data: { renovation_id, valuation } }];
}

function createRenovation(command: Command<'CreateRenovation'>, state: RenovationState): RenovationEvent[] {
  if (state.status !== 'NONE') throw new DomainError(409, ['renovation already exists']);
  const { estate } = command;
  if (estate.deleted) throw notFound('estate');
  const created: RenovationEvent = {
    type: 'RenovationCreated',
    data: {
      renovation_id: command.renovation_id,
      estate_id: estate.estate_id,
      organization_id: estate.organization_id,
      renovation_name: command.renovation_name,
    },
  };
  const valuation = valuate(command.renovation_id, [], estate, command.year);
  return [created, { type: 'RenovationValued', data: { renovation_id: command.renovation_id, valuation } }];
}

function addRenovationItem(command: Command<'AddRenovationItem'>, state: RenovationState): RenovationEvent[] {
  requireActive(state);
  const { estate, placement, item_id, renovation_component_type, count, year } = command;
  if (state.items.some((i) => i.item_id === item_id)) return [];
  checkPlacement(estate, placement);
  refuse(estate, placement, renovation_component_type, year);
  const added: ItemState = {
    item_id,
    placement,
    renovation_component_type,
    count,
    root_renovation_component_type: rootTypeOf(renovation_component_type),
  };
  return [
    {
      type: 'RenovationItemAdded',
      data: {
        renovation_id: state.renovation_id!,
        item_id,
        placement,
        root_renovation_component_type: added.root_renovation_component_type,
        renovation_component_type,
        count,
      },
    },
    ...revalued(state, [...state.items, added], estate, year),
  ];
}

function updateRenovationItem(command: Command<'UpdateRenovationItem'>, state: RenovationState): RenovationEvent[] {
  requireActive(state);
  const { estate, placement, item_id, changes, year } = command;
  checkPlacement(estate, placement);
  const item = findItem(state, item_id, placement);
  const type = changes.renovation_component_type ?? item.renovation_component_type;
  if (changes.renovation_component_type !== undefined) refuse(estate, placement, type, year);
  const retyped = type !== item.renovation_component_type;
  // A new type's quantity follows the estate: the plan's quantity was measured for the old one.
  const dropQuantity = retyped && item.quantity !== undefined && item.quantity !== null;
  const next: ItemState = {
    ...item,
    renovation_component_type: type,
    count: changes.count ?? item.count,
    root_renovation_component_type: rootTypeOf(type),
    ...(dropQuantity ? { quantity: null } : {}),
  };
  const changed = {
    ...(retyped ? { renovation_component_type: type, root_renovation_component_type: next.root_renovation_component_type } : {}),
    ...(dropQuantity ? { quantity: null } : {}),
    ...(next.count !== item.count ? { count: next.count } : {}),
  };
  const items = state.items.map((i) => (i.item_id === item_id ? next : i));
  return [
    ...(Object.keys(changed).length
      ? [{ type: 'RenovationItemUpdated' as const, data: { renovation_id: state.renovation_id!, item_id, changes: changed } }]
      : []),
    ...revalued(state, items, estate, year),
  ];
}

function removeRenovationItem(command: Command<'RemoveRenovationItem'>, state: RenovationState): RenovationEvent[] {
  requireActive(state);
  const { estate, placement, item_id, year } = command;
  findItem(state, item_id, placement);
  return [
    { type: 'RenovationItemRemoved', data: { renovation_id: state.renovation_id!, item_id, reason: 'REMOVED' } },
    ...revalued(
      state,
      state.items.filter((i) => i.item_id !== item_id),
      estate,
      year,
    ),
  ];
}

function reconcileWithEstate(command: Command<'ReconcileWithEstate'>, state: RenovationState): RenovationEvent[] {
  if (state.status !== 'ACTIVE') return [];
  const { estate, year } = command;
  const gone = state.items.filter((i) => !partExists(estate, i.placement));
  const removed: RenovationEvent[] = gone.map((i) => ({
    type: 'RenovationItemRemoved',
    data: { renovation_id: state.renovation_id!, item_id: i.item_id, reason: 'PART_REMOVED' },
  }));
  return [
    ...removed,
    ...revalued(
      state,
      state.items.filter((i) => !gone.includes(i)),
      estate,
      year,
    ),
  ];
}

function deleteRenovation(command: Command<'DeleteRenovation'>, state: RenovationState): RenovationEvent[] {
  if (state.status === 'DELETED' && command.reason === 'ESTATE_DELETED') return [];
  requireActive(state);
  return [
    { type: 'RenovationDeleted', data: { renovation_id: state.renovation_id!, estate_id: state.estate_id!, reason: command.reason } },
  ];
}

function declineTrajectory(command: Command<'DeclineTrajectory'>, state: RenovationState): RenovationEvent[] {
  if (state.status !== 'NONE' || state.declined) return [];
  const { type: _t, ...data } = command;
  return [{ type: 'RenovationTrajectoryDeclined', data }];
}

// One function per command above; this only dispatches (emmett's shape).
function decide(command: RenovationCommand, state: RenovationState): RenovationEvent[] {
  switch (command.type) {
    case 'CreateRenovation':
      return createRenovation(command, state);
    case 'CreateRenovationFromTrajectory':
      return createFromTrajectory(command, state);
    case 'AddRenovationItem':
      return addRenovationItem(command, state);
    case 'UpdateRenovationItem':
      return updateRenovationItem(command, state);
    case 'RemoveRenovationItem':
      return removeRenovationItem(command, state);
    case 'ReconcileWithEstate':
      return reconcileWithEstate(command, state);
    case 'DeleteRenovation':
      return deleteRenovation(command, state);
    case 'DeclineTrajectory':
      return declineTrajectory(command, state);
  }
}

/** An item as its `RenovationItemAdded` event, or its renovation's `RenovationCreated`, states it (the decider and the read model fold it alike). */
export function itemOf(data: RenovationItemFacts): ItemState {
  const { item_id, placement, renovation_component_type, root_renovation_component_type, count, quantity, step } = data;
  return {
    item_id,
    placement,
    renovation_component_type,
    root_renovation_component_type,
    count,
    ...(quantity !== undefined && quantity !== null ? { quantity } : {}),
    ...(step !== undefined ? { step } : {}),
  };
}

function evolve(state: RenovationState, event: RenovationEvent): RenovationState {
  switch (event.type) {
    case 'RenovationCreated':
      return {
        ...state,
        status: 'ACTIVE',
        renovation_id: event.data.renovation_id,
        estate_id: event.data.estate_id,
        organization_id: event.data.organization_id,
        trajectory: event.data.trajectory ?? null,
        income_category: event.data.income_category ?? null,
        items: (event.data.items ?? []).map(itemOf),
      };
    case 'RenovationItemAdded':
      return { ...state, items: [...state.items, itemOf(event.data)] };
    case 'RenovationItemUpdated':
      return { ...state, items: state.items.map((i) => (i.item_id === event.data.item_id ? { ...i, ...event.data.changes } : i)) };
    case 'RenovationItemRemoved':
      return { ...state, items: state.items.filter((i) => i.item_id !== event.data.item_id) };
    case 'RenovationValued':
      return { ...state, valuation: event.data.valuation };
    case 'RenovationDeleted':
      return { ...state, status: 'DELETED' };
    case 'RenovationTrajectoryDeclined':
      return { ...state, declined: true };
    default:
      return state;
  }
}

export const renovationDecider: Decider<RenovationCommand, RenovationEvent, RenovationState> = {
  initialState: () => ({
    status: 'NONE',
    renovation_id: null,
    estate_id: null,
    organization_id: null,
    items: [],
    valuation: null,
    trajectory: null,
    income_category: null,
    declined: false,
  }),
  decide,
  evolve,
};
