import { z } from 'zod';
import { Timestamp, Uuid } from './identity.ts';

/**
 * Renovations and reports (INTERFACE.md "Renovation", "Renovation item", "Renovation overview",
 * "Report", "Renovations (v1)", "Renovations (old-style)", "Renovation items"; API.md 4.5). The
 * endpoints arrive with the renovations and reports issues; the shapes are fixed here so every
 * context builds on the same names.
 */

const money = () => z.number();

// ---- requests ----

/** `POST /renovations`. */
export const CreateRenovationBody = z.strictObject({ estate_id: Uuid });
export type CreateRenovationBody = z.infer<typeof CreateRenovationBody>;

/** `POST` and `PATCH` of an item in any of the four scopes. `count` is the number of units (>= 1). */
export const RenovationItemBody = z.strictObject({
  renovation_component_type: z.string().min(1).max(100),
  count: z.number().min(1).max(100_000),
});
export const UpdateRenovationItemBody = RenovationItemBody.partial().refine((b) => Object.keys(b).length > 0, {
  message: 'must change at least one field',
});
export type RenovationItemBody = z.infer<typeof RenovationItemBody>;

export const SortBy = z.enum(['created_at', 'updated_at']);
export const SortOrder = z.enum(['ASC', 'DESC']);
const booleanString = z.enum(['true', 'false']).transform((v) => v === 'true');
const positiveInt = (max: number) => z.coerce.number<string>().int().min(1).max(max);

/** `GET /v1/renovations` query (API.md 4.5 names INTERFACE.md's parameters). */
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

/** INTERFACE.md's pagination envelope; `prev_page` / `next_page` are null at the ends. */
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
/** INTERFACE.md: an array of objects, each a map keyed by component type name. */
export const SelectionTree = z.array(z.record(z.string(), SelectionNode));

export const RenovationItem = z.object({
  id: Uuid,
  root_renovation_component_type: z.string(),
  renovation_component_type: z.string(),
  selection_tree: SelectionTree,
  estimated_cost: money(),
  estimated_vat_cost: money(),
  subsidy_amount: money(),
  count: z.number(),
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
});
/** Old style: `summary` plus the arrays at the top level. */
export const RenovationOverview = z.object({ summary: OverviewSummary, ...OverviewArrays });
/** v1: `summary` and `details`. */
export const RenovationOverviewV1 = z.object({ summary: OverviewSummary, details: z.object(OverviewArrays) });

export const GrantCategory = z.enum(['ROOF', 'OUTER_WALLS', 'FLOORS', 'WINDOWS_AND_DOORS', 'TECHNICAL_INSTALLATIONS', 'ASBESTOS_REMOVAL', 'OTHER']);
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
    }),
  ),
});
/** Keyed by category; only categories with eligible items appear. */
export const GovernmentGrants = z.partialRecord(GrantCategory, GovernmentGrantGroup);

export const Report = z.object({ id: Uuid, url: z.string(), is_outdated: z.boolean(), created_at: Timestamp, name: z.string() });
export const OldStyleReport = z.object({ id: Uuid, name: z.string(), url: z.string(), mimetype: z.string() });
export type Report = z.infer<typeof Report>;
