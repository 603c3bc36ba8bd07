import { z } from 'zod';
import { stamps, Timestamp, Uuid } from './identity.ts';
import { EnergyEfficiencyType, IncomeCategory, Region } from './enums.ts';
import {
  EstateFieldValues,
  EstateHistoryEntry,
  FloorFieldValues,
  RoofFieldValues,
  RoomFieldValues,
  StaircaseFieldValues,
} from './estates.ts';

/**
 * Renovations and reports (the interface's "Renovation", "Renovation item", "Renovation overview",
 * "Report", "Renovations (v1)", "Renovations (old-style)", "Renovation items"; docs/http-contract.md "Renovations and reports"). The
 * endpoints arrive with the renovations and reports issues; the shapes are fixed here so every
 * context builds on the same names.
 */

const money = () => z.number();

// ---- requests ----

/** `POST /renovations`; `renovation_name` is an extension (the search list shows it). */
export const CreateRenovationBody = z.strictObject({
  estate_id: Uuid,
  renovation_name: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters')
    .optional(),
});
export type CreateRenovationBody = z.infer<typeof CreateRenovationBody>;

/** `POST` and `PATCH` of an item in any of the four scopes. `count` is the number of units (>= 1). */
export const RenovationItemBody = z.strictObject({
  renovation_component_type: z.string().min(1).max(100),
  count: z.number().min(1).max(100_000),
});
export const UpdateRenovationItemBody = RenovationItemBody.partial()
  .refine((b) => Object.keys(b).length > 0, { message: 'must change at least one field' })
  .meta({ minProperties: 1 });
export type RenovationItemBody = z.infer<typeof RenovationItemBody>;

export const SortBy = z.enum(['created_at', 'updated_at']);
export const SortOrder = z.enum(['ASC', 'DESC']);
// A boolean as it arrives in a query string; services re-validate what the gateway already turned into a boolean.
const booleanString = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
const positiveInt = (max: number) => z.coerce.number<string>().int().min(1).max(max);

/** `GET /v1/renovations` query (docs/http-contract.md "Renovations and reports" names the interface's parameters). */
export const RenovationSearchQuery = z.strictObject({
  page: positiveInt(1_000_000).optional(),
  page_size: positiveInt(100).optional(),
  sort_by: SortBy.optional(),
  sort_order: SortOrder.optional(),
  include_deleted: booleanString.optional(),
  external_user_id: z.string().min(1).max(255).optional(),
});
export type RenovationSearchQuery = z.infer<typeof RenovationSearchQuery>;

export const ReportLanguage = z.enum(['nl-BE', 'nl-NL', 'fr-BE', 'en']);
export type ReportLanguage = z.infer<typeof ReportLanguage>;
/** `POST /v1/renovations/{id}/reports`: the language defaults from the estate's country. */
export const CreateReportBody = z.strictObject({ language: ReportLanguage.optional() });

// ---- replies ----

export const RenovationFile = z.object({ id: Uuid, name: z.string(), url: z.string().nullable(), mimetype: z.string() });

/** Old-style record (`GET /renovations`); the single read adds `files`. */
export const Renovation = z.object({
  id: Uuid,
  estate_id: Uuid,
  estimated_cost: money(),
  estimated_vat_cost: money(),
  subsidy_amount: money(),
  /** The EPC label the estate reaches with the renovation's items. */
  energy_efficiency_indication: z.string().nullable(),
  /** The scale of that label: EPC_FLANDERS | EPC_BRUSSELS | EPC_WALLONIA | ENERGY_LABEL_NL. */
  energy_efficiency_type: z.string().nullable(),
  // extensions
  renovation_name: z.string().nullable(),
  total_estimated_cost_incl_vat: money(),
  ...stamps,
});
export const RenovationWithFiles = Renovation.extend({ files: z.array(RenovationFile) });
export const RenovationCreated = z.object({ id: Uuid, estate_id: Uuid });
export type Renovation = z.infer<typeof Renovation>;

/** One entry of `GET /v1/renovations`. */
export const RenovationSearchEntry = z.object({
  renovation_id: Uuid,
  renovation_created_at: Timestamp,
  renovation_updated_at: Timestamp,
  subsidy_amount: money(),
  estimated_cost: money(),
  estimated_vat_cost: money(),
  total_estimated_cost_incl_vat: money(),
  estate_id: Uuid,
  estate_geo_address: z.object({
    house_number: z.string().nullable(),
    place: z.string().nullable(),
    street: z.string().nullable(),
    zip_code: z.string().nullable(),
  }),
  managing_user: z.object({ id: Uuid.nullable(), external_id: z.string().nullable() }),
  renovation_name: z.string().nullable(),
  renovation_deleted_at: Timestamp.nullable(),
});
export type RenovationSearchEntry = z.infer<typeof RenovationSearchEntry>;

/** The interface's pagination envelope; `prev_page` / `next_page` are null at the ends. */
export const paginated = <T extends z.ZodType>(entry: T) =>
  z.object({
    page: z.number().int(),
    page_size: z.number().int(),
    total_pages: z.number().int(),
    prev_page: z.number().int().nullable(),
    next_page: z.number().int().nullable(),
    total: z.number().int(),
    has_prev_page: z.boolean(),
    has_next_page: z.boolean(),
    data: z.array(entry),
  });
export const RenovationSearchPage = paginated(RenovationSearchEntry);

/** A node of a selection tree: chosen or not, and its children keyed by component type (empty at a leaf). */
export interface SelectionNode {
  is_selected: boolean;
  enum_selection_tree: Record<string, SelectionNode>;
}
export const SelectionNode: z.ZodType<SelectionNode> = z.lazy(() =>
  z.object({ is_selected: z.boolean(), enum_selection_tree: z.record(z.string(), SelectionNode) }),
);
/** The interface: an array of objects, each a map keyed by component type name. */
export const SelectionTree = z.array(z.record(z.string(), SelectionNode));

/** Where an item sits: the general scope, a roof, a room (on its floor) or a staircase (on its floor). */
export const RenovationScope = z.enum(['GENERAL', 'ROOF', 'ROOM', 'STAIRCASE', 'DERIVED']);
export type RenovationScope = z.infer<typeof RenovationScope>;

export const RenovationItem = z.object({
  id: Uuid,
  root_renovation_component_type: z.string(),
  renovation_component_type: z.string(),
  selection_tree: SelectionTree,
  estimated_cost: money(),
  estimated_vat_cost: money(),
  subsidy_amount: money(),
  count: z.number(),
  // extensions: where the item sits, how its figures were made and from which data rows (house style: domain figures are data with sources)
  scope: RenovationScope,
  roof_id: Uuid.nullable(),
  floor_id: Uuid.nullable(),
  room_id: Uuid.nullable(),
  staircase_id: Uuid.nullable(),
  /** The quantity priced, in `unit`: the linked part's surface (or the estate's) times `count`, or `count` units. */
  quantity: z.number(),
  unit: z.string(),
  /** The catalogue leaf whose price was used (an inner node is priced as its first leaf). */
  priced_as: z.string().nullable(),
  vat_rate: z.number(),
  grant_category: z.string().nullable(),
  scheme: z.string().nullable(),
  conditions: z.array(z.string()),
  /** Data rows behind the figures: unit-prices.json, vat-rules.json and grants/*.json ids. */
  sources: z.object({ price_row: z.string().nullable(), vat_case: z.string().nullable(), grant_rules: z.array(z.string()) }),
  /** Derived items only: the client item types this supporting work serves. */
  supports: z.array(z.string()),
  /** Why the item could not be priced fully (missing estate data); empty when it was. */
  issues: z.array(z.string()),
});
export type RenovationItem = z.infer<typeof RenovationItem>;

export const AvailableItem = z.object({ root_renovation_component_type: z.string(), selection_tree: SelectionTree });

const OverviewArrays = {
  general: z.array(RenovationItem),
  rooms: z.array(z.object({ room_id: Uuid, floor_id: Uuid, estate_room_type: z.string().nullable(), items: z.array(RenovationItem) })),
  roofs: z.array(z.object({ roof_id: Uuid, items: z.array(RenovationItem) })),
  staircases: z.array(z.object({ staircase_id: Uuid, items: z.array(RenovationItem) })),
  derived: z.array(RenovationItem),
};
const OverviewSummary = z.object({
  estate_id: Uuid,
  total_subsidy_amount: money(),
  total_estimated_cost: money(),
  total_estimated_vat_cost: money(),
  /** Extension (v1 names it; old style carries it too). */
  total_estimated_cost_incl_vat: money(),
  // extensions: the label reached with the items, the price year and what kept figures from being complete
  energy_efficiency_indication: z.string().nullable(),
  energy_efficiency_type: z.string().nullable(),
  price_year: z.number().int().nullable(),
  issues: z.array(z.string()),
});
/** Old style: `summary` plus the arrays at the top level. */
export const RenovationOverview = z.object({ summary: OverviewSummary, ...OverviewArrays });
/** v1: `summary` and `details`. */
export const RenovationOverviewV1 = z.object({ summary: OverviewSummary, details: z.object(OverviewArrays) });

export const GrantCategory = z.enum([
  'ROOF',
  'OUTER_WALLS',
  'FLOORS',
  'WINDOWS_AND_DOORS',
  'TECHNICAL_INSTALLATIONS',
  'ASBESTOS_REMOVAL',
  'OTHER',
]);
export const GovernmentGrantGroup = z.object({
  total_subsidy_amount: money(),
  total_estimated_cost: money(),
  total_estimated_vat_cost: money(),
  eligible_renovation_items: z.array(
    z.object({
      renovation_item_id: Uuid,
      renovation_component_type: z.string(),
      estimated_cost: money(),
      subsidy_amount: money(),
      scheme: z.string(),
      conditions: z.array(z.string()),
      /** Extension: the grant rows applied (grants/<region>.json ids). */
      grant_rules: z.array(z.string()),
    }),
  ),
});
/** Keyed by category; only categories with eligible items appear. */
export const GovernmentGrants = z.partialRecord(GrantCategory, GovernmentGrantGroup);

export const Report = z.object({ id: Uuid, url: z.string(), is_outdated: z.boolean(), created_at: Timestamp, name: z.string() });
export const OldStyleReport = z.object({ id: Uuid, name: z.string(), url: z.string(), mimetype: z.string() });
export type Report = z.infer<typeof Report>;

/** `GET /renovations/{id}/overview` and its v1 form: `as_of` (extension) replays the renovation's history to that moment. */
export const RenovationOverviewQuery = z.strictObject({
  as_of: z.iso.datetime({ offset: true, error: 'must be an ISO-8601 timestamp' }).optional(),
});

/** One event of a renovation's history (audit): the same entry as an estate's history. */
export const RenovationHistoryEntry = EstateHistoryEntry;
export type RenovationHistoryEntry = z.infer<typeof RenovationHistoryEntry>;

// ---- the renovations context: what its streams hold (`renovation-<id>`) ----

/** The client scopes; `DERIVED` items are added by the system only. */
export const ItemScope = z.enum(['GENERAL', 'ROOF', 'ROOM', 'STAIRCASE']);
export type ItemScope = z.infer<typeof ItemScope>;

/** Where a client item sits: the part it is linked to gives its quantity and removes it when the part goes. */
export const ItemPlacement = z.object({
  scope: ItemScope,
  roof_id: Uuid.nullable(),
  floor_id: Uuid.nullable(),
  room_id: Uuid.nullable(),
  staircase_id: Uuid.nullable(),
});
export type ItemPlacement = z.infer<typeof ItemPlacement>;

/** One step of a trajectory as a renovation item: the plan's quantity (of one unit) is kept as the item's own. */
export const TrajectoryItem = z.strictObject({
  item_id: Uuid,
  renovation_component_type: z.string().min(1).max(100),
  placement: ItemPlacement,
  count: z.literal(1),
  quantity: z.number().min(0).max(1_000_000),
  /** The step's `order` in the plan. */
  step: z.number().int().min(1),
});
export type TrajectoryItem = z.infer<typeof TrajectoryItem>;

/**
 * Internal (the calculations worker, not HTTP): `cmd.renovations.create-from-trajectory`, with the
 * job's actor. Creates the renovation and all its items in one append; the same body again answers
 * the same `{ id, estate_id }`, another body for an existing id is 409; 404 while renovations does
 * not know the estate (or a roof) yet, so the caller retries.
 */
export const CreateRenovationFromTrajectoryBody = z.strictObject({
  renovation_id: Uuid,
  estate_id: Uuid,
  name: z.string().trim().min(1).max(255).nullable(),
  calculation_job_id: Uuid,
  items: z.array(TrajectoryItem).max(100),
  /** The plan's price year (default: this year): the first figures are the plan's. */
  year: z.number().int().min(2000).max(2100).optional(),
  /** The income category the plan was priced for; kept by the renovation for its grants (default: the data's, MIDDLE). */
  income_category: IncomeCategory.optional(),
});
export type CreateRenovationFromTrajectoryBody = z.infer<typeof CreateRenovationFromTrajectoryBody>;

/**
 * The estate as the renovations context keeps it (its own copy, fed by the estates context's events):
 * what pricing, quantities, the energy indication and access control need.
 */
export const RenovationEstateSnapshot = z.object({
  estate_id: Uuid,
  organization_id: Uuid,
  fields: EstateFieldValues,
  roofs: z.array(RoofFieldValues.extend({ id: Uuid })),
  floors: z.array(
    FloorFieldValues.extend({
      id: Uuid,
      rooms: z.array(RoomFieldValues.extend({ id: Uuid })),
      staircases: z.array(StaircaseFieldValues.extend({ id: Uuid })),
    }),
  ),
  /** User ids of the estate's members (CLIENT). */
  members: z.array(Uuid),
  deleted: z.boolean(),
});
export type RenovationEstateSnapshot = z.infer<typeof RenovationEstateSnapshot>;

const itemSources = z.object({ price_row: z.string().nullable(), vat_case: z.string().nullable(), grant_rules: z.array(z.string()) });

/** One item's figures: quantity, cost, VAT and grant from the catalogue for the estate's country, region, age and year. */
export const ItemFigures = z.object({
  quantity: z.number(),
  unit: z.string(),
  priced_as: z.string().nullable(),
  estimated_cost: money(),
  estimated_vat_cost: money(),
  vat_rate: z.number(),
  subsidy_amount: money(),
  grant_category: z.string().nullable(),
  scheme: z.string().nullable(),
  conditions: z.array(z.string()),
  sources: itemSources,
  issues: z.array(z.string()),
});
export type ItemFigures = z.infer<typeof ItemFigures>;

/** A supporting work the items need (scaffolding, architect, demolition, waste, asbestos inventory ...). */
export const DerivedItemFigures = ItemFigures.extend({
  id: Uuid,
  renovation_component_type: z.string(),
  supports: z.array(z.string()),
});
export type DerivedItemFigures = z.infer<typeof DerivedItemFigures>;

const totals = z.object({
  estimated_cost: money(),
  estimated_vat_cost: money(),
  subsidy_amount: money(),
  total_estimated_cost_incl_vat: money(),
});

/** Everything that follows from a renovation's items and its estate, recomputed on every change of either. */
export const RenovationValuation = z.object({
  year: z.number().int(),
  catalogue_version: z.string(),
  model_version: z.string(),
  country: z.enum(['BE', 'NL']).nullable(),
  region: Region.nullable(),
  /** By item id. */
  items: z.record(z.string(), ItemFigures),
  derived: z.array(DerivedItemFigures),
  /** The label the estate reaches with the items, on `energy_efficiency_type`'s scale. */
  energy_efficiency_indication: z.string().nullable(),
  energy_efficiency_type: EnergyEfficiencyType.nullable(),
  epc_score_after: z.number().nullable(),
  /** Items plus derived items. */
  totals,
  issues: z.array(z.string()),
});
export type RenovationValuation = z.infer<typeof RenovationValuation>;

const itemChoice = { renovation_component_type: z.string(), count: z.number() } as const;
/** Items from a trajectory: the plan's quantity of one unit (kept through estate changes) and the step. */
const itemOrigin = { quantity: z.number().nullable().optional(), step: z.number().int().optional() } as const;
/** An item as an event states it: where it sits, what it is, and, from a trajectory, its quantity and step. */
const RenovationItemFacts = z.object({
  item_id: Uuid,
  placement: ItemPlacement,
  root_renovation_component_type: z.string(),
  ...itemChoice,
  ...itemOrigin,
});
export type RenovationItemFacts = z.infer<typeof RenovationItemFacts>;
/** Where a renovation made from a trajectory came from: the job, and a fingerprint of the body that made it (idempotency). */
const TrajectoryOrigin = z.object({ calculation_job_id: Uuid, fingerprint: z.string() });
/** What every command that changes the figures carries: the estate as this context knows it and the price year. */
const valuationInputs = { estate: RenovationEstateSnapshot, year: z.number().int() } as const;

/** Commands (imperative): time and new ids come in, the decider stays pure. */
export const RenovationCommands = {
  CreateRenovation: z.object({ renovation_id: Uuid, renovation_name: z.string().nullable(), ...valuationInputs }),
  /** A renovation whose items are a trajectory's steps, in one decision. */
  CreateRenovationFromTrajectory: z.object({
    renovation_id: Uuid,
    renovation_name: z.string().nullable(),
    calculation_job_id: Uuid,
    items: z.array(TrajectoryItem),
    income_category: IncomeCategory.nullable(),
    ...valuationInputs,
  }),
  AddRenovationItem: z.object({ renovation_id: Uuid, item_id: Uuid, placement: ItemPlacement, ...itemChoice, ...valuationInputs }),
  UpdateRenovationItem: z.object({
    renovation_id: Uuid,
    item_id: Uuid,
    placement: ItemPlacement,
    changes: z.object(itemChoice).partial(),
    ...valuationInputs,
  }),
  RemoveRenovationItem: z.object({ renovation_id: Uuid, item_id: Uuid, placement: ItemPlacement, ...valuationInputs }),
  /** The estate changed: items of removed parts go, quantities and figures follow the parts. */
  ReconcileWithEstate: z.object({ renovation_id: Uuid, ...valuationInputs }),
  DeleteRenovation: z.object({ renovation_id: Uuid, reason: z.enum(['DELETED', 'ESTATE_DELETED']) }),
  /** A finished calculation job's renovation that cannot be made (its estate deleted meanwhile, or the plan refused): said once. */
  DeclineTrajectory: z.object({ renovation_id: Uuid, estate_id: Uuid, calculation_job_id: Uuid, reason: z.string() }),
} as const;
export type RenovationCommandType = keyof typeof RenovationCommands;
export type RenovationCommand = {
  [K in RenovationCommandType]: { type: K } & z.infer<(typeof RenovationCommands)[K]>;
}[RenovationCommandType];

/** Events (past tense); each names its renovation. */
export const RenovationEvents = {
  RenovationCreated: z.object({
    renovation_id: Uuid,
    estate_id: Uuid,
    organization_id: Uuid,
    renovation_name: z.string().nullable(),
    /** Renovations made from a trajectory only. */
    trajectory: TrajectoryOrigin.optional(),
    /** The income category its grants are priced for, when the renovation states one. */
    income_category: IncomeCategory.optional(),
    /**
     * A trajectory's items, made with the renovation in the same decision: one event for what one
     * event decides, rather than an item event each (a job's plan has about six). Absent: none yet.
     */
    items: z.array(RenovationItemFacts).optional(),
  }),
  RenovationItemAdded: z.object({ renovation_id: Uuid, ...RenovationItemFacts.shape }),
  /** `quantity: null`: the item's own quantity is dropped (its type changed), the estate's applies. */
  RenovationItemUpdated: z.object({
    renovation_id: Uuid,
    item_id: Uuid,
    changes: z.object({ root_renovation_component_type: z.string(), ...itemChoice, quantity: z.number().nullable() }).partial(),
  }),
  /** `PART_REMOVED`: the roof, room, staircase or floor it was linked to was deleted. */
  RenovationItemRemoved: z.object({ renovation_id: Uuid, item_id: Uuid, reason: z.enum(['REMOVED', 'PART_REMOVED']) }),
  /** The figures after a change of the items or of the estate (only when they differ from the last ones). */
  RenovationValued: z.object({ renovation_id: Uuid, valuation: RenovationValuation }),
  /** Soft delete: the renovation stays in the search with `include_deleted`. */
  RenovationDeleted: z.object({ renovation_id: Uuid, estate_id: Uuid, reason: z.enum(['DELETED', 'ESTATE_DELETED']) }),
  /**
   * A finished calculation job's renovation was not made, and why (its estate deleted before renovations
   * could make it, say): the job's FINISHED webhook waits for this or for the renovation's `RenovationCreated`.
   */
  RenovationTrajectoryDeclined: z.object({ renovation_id: Uuid, estate_id: Uuid, calculation_job_id: Uuid, reason: z.string() }),
} as const;
export type RenovationEventType = keyof typeof RenovationEvents;
export type RenovationEvent = {
  [K in RenovationEventType]: { type: K; data: z.infer<(typeof RenovationEvents)[K]> };
}[RenovationEventType];

/** Subjects of the renovations context (`cmd.renovations.*`, `qry.renovations.*`; events on `evt.renovations.<EventType>`). */
export const RenovationsSubjects = {
  createRenovation: 'cmd.renovations.create-renovation',
  /** Internal (the calculations worker): body CreateRenovationFromTrajectoryBody; reply RenovationCreated `{ id, estate_id }`. */
  createFromTrajectory: 'cmd.renovations.create-from-trajectory',
  listRenovations: 'qry.renovations.list-renovations',
  getRenovation: 'qry.renovations.get-renovation',
  deleteRenovation: 'cmd.renovations.delete-renovation',
  overview: 'qry.renovations.overview',
  overviewV1: 'qry.renovations.overview-v1',
  governmentGrants: 'qry.renovations.government-grants',
  search: 'qry.renovations.search',
  history: 'qry.renovations.history',
  /** The item subjects serve all four scopes: the path's roof_id, room_id or staircase_id names the scope. */
  addItem: 'cmd.renovations.add-item',
  listItems: 'qry.renovations.list-items',
  getItem: 'qry.renovations.get-item',
  updateItem: 'cmd.renovations.update-item',
  removeItem: 'cmd.renovations.remove-item',
  availableItems: 'qry.renovations.available-items',
} as const;
