import { Household, PropertyDescription, PropertyFields, type EnergyEfficiencyType } from '@renopath/contracts';
import { detectRegion, labelFor, labelsOf, scaleOfRegion } from '@renopath/energy';

/**
 * A portfolio file's row as it was read: its line and its cells by column (only the portfolio's
 * columns), or the reason the reader could not take it (a wrong number of fields, say).
 */
export interface RawRow {
  row_number: number;
  line: number;
  cells: Record<string, string>;
  /** Set by the reader (a malformed record, a repeated external_id): the row is an ERROR without being computed. */
  error?: string;
}

/** A row that is a home to compute: its description, and what the lender's columns add. */
export interface HomeRow {
  row_number: number;
  line: number;
  external_id: string;
  property: PropertyDescription;
  /** A certificate's label given without its score (kept as given). */
  epc_label: string | null;
  scale: EnergyEfficiencyType;
  outstanding_amount: number | null;
  property_value: number | null;
  /** The household columns that pick the dated rules (a buyer's deed date, a letting), as a single job's `household`. */
  household: Household | null;
}

/** The columns besides the property's (docs/portfolio-runs.md "The file"). */
export const LENDER_COLUMNS = ['external_id', 'epc_label', 'outstanding_amount', 'property_value', 'purchase_date', 'occupancy'] as const;
export const PORTFOLIO_COLUMNS: ReadonlySet<string> = new Set([...LENDER_COLUMNS, ...Object.keys(PropertyFields)]);

type Kind =
  | { type: 'number' | 'boolean' | 'string' }
  | { type: 'enum'; options: readonly string[] }
  | { type: 'array'; options: readonly string[] };

/** How a cell becomes the value of its property field: read from the field's zod type, so the two never differ. */
const KINDS: Record<string, Kind> = Object.fromEntries(
  Object.entries(PropertyFields).map(([field, schema]) => {
    // biome-ignore lint/suspicious/noExplicitAny: zod's internal definition is untyped here
    let def: any = (schema as any)._zod.def;
    while (def.type === 'optional') def = def.innerType._zod.def;
    if (def.type === 'enum') return [field, { type: 'enum', options: Object.values(def.entries) as string[] }];
    if (def.type === 'array') return [field, { type: 'array', options: Object.values(def.element._zod.def.entries) as string[] }];
    return [field, { type: def.type === 'number' || def.type === 'boolean' ? def.type : 'string' }];
  }),
);

const TRUE = new Set(['true', 'yes', '1', 'y']);
const FALSE = new Set(['false', 'no', '0', 'n']);

/** A number as a spreadsheet writes it: `1234.5`, `1234,5` (a decimal comma, in a semicolon file), no thousands separators. */
function numberOf(raw: string): number | null {
  const text = raw.trim().replace(/^(-?\d+),(\d+)$/, '$1.$2');
  if (!/^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

const at = (row: RawRow, column: string, why: string) => `line ${row.line}, column ${column}: ${why}`;

/** A row's refusal, thrown by a step of readHome and returned by it as the row's error. */
class RowRefused extends Error {}

const refuse = (row: RawRow, column: string, why: string): never => {
  throw new RowRefused(at(row, column, why));
};

/**
 * A raw row checked and typed: the home to compute, or the error that names its column and line.
 * An empty cell is an absent value. The checks are the job request's (the same zod contract), plus
 * the lender's columns and a certificate label that must exist on the home's regional scale.
 */
export function readHome(row: RawRow): { ok: true; home: HomeRow } | { ok: false; error: string } {
  if (row.error) return { ok: false, error: row.error };
  try {
    const external_id = externalIdOf(row);
    const home = propertyOf(row);
    const region = detectRegion(home.zip_code, home.country);
    if (!region) refuse(row, 'zip_code', `${home.zip_code} is not a postal code of ${home.country}`);
    const scale = scaleOfRegion(region!);
    const epc_label = epcLabelOf(row, home, scale);
    const amounts = amountsOf(row);
    const household = householdOf(row);
    return {
      ok: true,
      home: { row_number: row.row_number, line: row.line, external_id, property: home, epc_label, scale, ...amounts, household },
    };
  } catch (err) {
    if (err instanceof RowRefused) return { ok: false, error: err.message };
    throw err;
  }
}

function externalIdOf(row: RawRow): string {
  const external_id = (row.cells['external_id'] ?? '').trim();
  if (external_id === '') refuse(row, 'external_id', 'is required');
  if (external_id.length > 255) refuse(row, 'external_id', 'is longer than 255 characters');
  return external_id;
}

/** The property's columns, each cell read as its field's kind, checked as the job request's description. */
function propertyOf(row: RawRow): PropertyDescription {
  const property: Record<string, unknown> = {};
  for (const [column, raw] of Object.entries(row.cells)) {
    const kind = KINDS[column];
    const value = raw.trim();
    if (kind && value !== '') property[column] = cellValue(row, column, kind, value);
  }
  const parsed = PropertyDescription.safeParse(property);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const column = String(issue.path[0] ?? 'row');
    refuse(row, column, issue.code === 'invalid_type' && property[column] === undefined ? 'is required' : issue.message);
  }
  return parsed.data!;
}

/** A non-empty cell as the value of its property field. */
function cellValue(row: RawRow, column: string, kind: Kind, value: string): unknown {
  switch (kind.type) {
    case 'number': {
      const n = numberOf(value);
      return n ?? refuse(row, column, `${JSON.stringify(value)} is not a number`);
    }
    case 'boolean': {
      const lower = value.toLowerCase();
      if (!TRUE.has(lower) && !FALSE.has(lower)) refuse(row, column, `${JSON.stringify(value)} is not true or false`);
      return TRUE.has(lower);
    }
    case 'enum': {
      const upper = value.toUpperCase();
      if (!kind.options.includes(upper)) refuse(row, column, `${JSON.stringify(value)} is not one of ${kind.options.join(', ')}`);
      return upper;
    }
    case 'array': {
      const items = value.split('|').map((v) => v.trim().toUpperCase());
      const wrong = items.find((v) => !kind.options.includes(v));
      if (wrong !== undefined) refuse(row, column, `${JSON.stringify(wrong)} is not one of ${kind.options.join(', ')}`);
      return items;
    }
    default:
      return value;
  }
}

/** The certificate label given without its score: a label of the home's scale, and the score's label when both are given. */
function epcLabelOf(row: RawRow, home: PropertyDescription, scale: EnergyEfficiencyType): string | null {
  const rawLabel = (row.cells['epc_label'] ?? '').trim();
  if (rawLabel === '') return null;
  const label = labelsOf(scale).find((l) => l.toUpperCase() === rawLabel.toUpperCase());
  if (!label) refuse(row, 'epc_label', `${JSON.stringify(rawLabel)} is not a label of ${scale} (${labelsOf(scale).join(', ')})`);
  const score = home.energy_efficiency_score;
  if (score !== undefined && labelFor(scale, score) !== label) {
    refuse(row, 'epc_label', `${label} does not match energy_efficiency_score ${score} (label ${labelFor(scale, score)} on ${scale})`);
  }
  return label!;
}

/** The lender's amounts: a loan's outstanding amount (not negative) and the property's value (above 0). */
function amountsOf(row: RawRow): Record<'outstanding_amount' | 'property_value', number | null> {
  const amounts: Record<'outstanding_amount' | 'property_value', number | null> = { outstanding_amount: null, property_value: null };
  for (const column of ['outstanding_amount', 'property_value'] as const) {
    const value = (row.cells[column] ?? '').trim();
    if (value === '') continue;
    const n = numberOf(value);
    if (n === null) return refuse(row, column, `${JSON.stringify(value)} is not a number`);
    if (n < 0 || (column === 'property_value' && n === 0)) {
      refuse(row, column, column === 'property_value' ? 'must be above 0' : 'must not be negative');
    }
    amounts[column] = n;
  }
  return amounts;
}

/** The job request's household fields: the deed date a buyer's obligation runs from, and whether the home is let. */
function householdOf(row: RawRow): Household | null {
  const householdCells: Record<string, string> = {};
  for (const column of ['purchase_date', 'occupancy'] as const) {
    const value = (row.cells[column] ?? '').trim();
    if (value !== '') householdCells[column] = column === 'occupancy' ? value.toUpperCase() : value;
  }
  if (householdCells['purchase_date'] === undefined && householdCells['occupancy'] === undefined) return null;
  const read = Household.safeParse(householdCells);
  if (!read.success) {
    const issue = read.error.issues[0]!;
    const column = String(issue.path[0] ?? 'row');
    refuse(row, column, `${JSON.stringify(householdCells[column] ?? '')}: ${issue.message}`);
  }
  return read.data!;
}
