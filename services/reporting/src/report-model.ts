import type { EnergyEfficiencyType, IncomeCategory, QualityLabel, Region } from '@renopath/contracts';

/**
 * What a report (PDF) and the public referral page show, already computed: the renderers only lay it
 * out and translate it. Money in euros (two decimals), surfaces in m2, dates ISO-8601.
 */
export const REPORT_LANGUAGES = ['nl-BE', 'nl-NL', 'fr-BE', 'en'] as const;
export type ReportLanguage = (typeof REPORT_LANGUAGES)[number];

export interface ReportItem {
  /** A catalogue component type (`EXTERIOR_WALL_INSULATION`); the renderer translates it. */
  renovation_component_type: string;
  quantity: number;
  /** `m2`, `m`, `piece`, `kWp`, `lump_sum`. */
  unit: string;
  estimated_cost: number;
  estimated_vat_cost: number;
  subsidy_amount: number;
  /** A supporting work the system added (scaffolding, architect...). */
  derived: boolean;
}

export interface ReportStep {
  order: number;
  renovation_component_type: string;
  /** The planner's phase (`ROOF`, `WALLS_AND_WINDOWS`, ...) when the step comes from a trajectory; null otherwise. */
  phase: string | null;
  /** The EPC label and score after this step (null when the model could not place it). */
  epc_label_after: string | null;
  epc_score_after: number | null;
  estimated_cost: number;
  estimated_vat_cost: number;
  subsidy_amount: number;
  /** Cost incl. VAT minus the subsidy. */
  net_cost: number;
  /** Net cost of this step and every step before it: the chart's cost line. */
  cumulative_net_cost: number;
  /** The step's item and the supporting works priced into it. */
  items: ReportItem[];
}

export interface ReportGrantItem {
  renovation_component_type: string;
  subsidy_amount: number;
  /** The grant scheme's name as the data file gives it (e.g. "Mijn VerbouwPremie"). */
  scheme: string | null;
  /** Conditions in the catalogue's wording: the renderers show each in the report's language (data/grant-conditions.json). */
  conditions: string[];
}

export interface ReportGrantCategory {
  /** `ROOF`, `OUTER_WALLS`, `FLOORS`, `WINDOWS_AND_DOORS`, `TECHNICAL_INSTALLATIONS`, `ASBESTOS_REMOVAL`, `OTHER`. */
  category: string;
  total_subsidy_amount: number;
  items: ReportGrantItem[];
}

/** A rule or target ahead of the home (the Flemish or Walloon obligation after a purchase, a rental norm, the long-term target). */
export interface ReportMilestone {
  kind: 'OBLIGATION' | 'RENTAL_NORM' | 'TARGET';
  rule_id: string;
  region: Region;
  /** The label the rule asks for. */
  label: string;
  /** Today's label, which makes the rule apply. */
  from_label: string;
  /** Deeds (obligation) or leases (rental norm) from this date. */
  from_date: string | null;
  within_years: number | null;
  /** The date to reach the label by (obligation: the assumed deed date plus `within_years`; target: its year's end). */
  deadline: string | null;
  /** The first step after which the home meets it; null when the steps do not reach it. */
  reached_at_step: number | null;
  source: string;
}

/** What the figures rest on, for the homeowner to check. */
export interface ReportConditions {
  /** The price level of the costs. */
  price_year: number | null;
  /** The date whose VAT and grant rules were applied. */
  rules_date: string | null;
  /** The purchase deed date the obligations after a purchase were read for. */
  deed_date: string | null;
  /** The income category the grants assume, and the grants for each category; null when no grant depends on income. */
  income: { category: IncomeCategory; assumed: boolean; subsidy_by_category: Record<IncomeCategory, number> } | null;
  /** The inputs the model estimated (source MODEL): what to give to improve the estimate. */
  modelled_fields: string[];
}

/** The household's money (from the trajectory's financing): bill before and after, monthly repayment against monthly saving. */
export interface ReportMoney {
  /** The bill and savings come from the household's metered use (else from the model of the described home). */
  from_meter: boolean;
  metered: { method: 'MONTHLY' | 'ANNUAL'; carrier: string; metered_kwh_year: number; modelled_kwh_year: number; ratio: number } | null;
  bill_today_eur_per_year: number;
  /** 80% interval of today's bill when it comes from the meter. */
  bill_today_interval: { low: number; high: number } | null;
  bill_after_eur_per_year: number;
  monthly_saving_eur: number;
  loan: {
    product: string;
    provider: string;
    rate_percent: number;
    term_months: number;
    principal_eur: number;
    monthly_payment_eur: number;
  } | null;
  payback_years: number | null;
  payback_years_with_support: number | null;
}

export interface ReportModel {
  language: ReportLanguage;
  /** When the report was made (ISO). */
  generated_at: string;
  estate: {
    /** Street and place; the house number only where it may be shown (the referral page hides it unless the agency allows). */
    /** The estate's own title (its name), shown where no street is known. */
    title: string | null;
    street: string | null;
    house_number: string | null;
    zip_code: string | null;
    place: string | null;
    country: 'BE' | 'NL';
    year_built: number | null;
    habitable_space_m2: number | null;
    estate_type: string | null;
    /** The estate's first media image, or null. */
    photo: { bytes: Uint8Array; mimetype: 'image/jpeg' | 'image/png' } | null;
  };
  scale: EnergyEfficiencyType;
  /** The scale's labels from best to worst (`['A+', 'A', ..., 'F']`): the chart's ladder. */
  labels: string[];
  current: { epc_score: number | null; epc_label: string | null };
  reachable: { epc_score: number | null; epc_label: string | null };
  steps: ReportStep[];
  totals: {
    estimated_cost: number;
    estimated_vat_cost: number;
    subsidy_amount: number;
    total_estimated_cost_incl_vat: number;
    net_cost: number;
  };
  grants: ReportGrantCategory[];
  /** Plain sentences (already in the report's language, or data wording) of what the figures assume. */
  assumptions: string[];
  /** Where each input came from: INPUT, EPC_DOCUMENT, LIDAR, PROVIDER, MODEL. */
  sources: Array<{ field: string; source: string }>;
  confidence: { score: number; quality_label: QualityLabel; average_pct: number; standard_deviation_pct: number; at_least: boolean } | null;
  conditions: ReportConditions;
  milestones: ReportMilestone[];
  /** The agency whose page or report this is: the call to action. */
  agency: { name: string; phone: string | null; email: string | null; website: string | null } | null;
  /** The household's money when the figures come from a trajectory with financing. */
  money?: ReportMoney;
}
