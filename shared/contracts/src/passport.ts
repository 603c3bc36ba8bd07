import { z } from 'zod';
import { DataSource, EnergyEfficiencyType, QualityLabel, Region } from './enums.ts';
import { stamps, Timestamp, Uuid } from './identity.ts';
import { ReportLanguage } from './renovations.ts';
import { singleLine } from './text.ts';
import { Financing, MeteredCalibration } from './financing.ts';
import { GrantConditions, StepSpecification } from './trajectory.ts';

/**
 * The renovation passport (docs/renovation-passport.md): the document the recast EPBD (Directive (EU)
 * 2024/1275, article 12 and annex VIII) has member states introduce. Renopath pre-fills it from a
 * FINISHED trajectory job; an advisor completes it after a site visit and signs it; anyone verifies it
 * with the service's published keys. `content` is what is hashed (RFC 8785 canonical JSON) and signed.
 *
 * A step's `specification`, `grant_conditions`, `planned_year`, `financing` and `heat_pump_kw`, a
 * milestone's `deadline` and `applies_because`, and the plan's `calibration` are the trajectory's own
 * (same schemas); the ones the plan may leave out (`financing`, `heat_pump_kw`, `calibration`) are null
 * when it does. `lifetime_years` and `maintenance` are null until the planner gives them.
 */

/** An absolute http(s) URL, as a job's `webhook_url` is. */
const httpUrl = () => z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).max(2048);
const money = () => z.number().meta({ description: 'Euros, two decimals.' });
const text = singleLine(200);
/** A note of the advisor's: free text, a few paragraphs at most. */
const note = z.string().trim().min(1).max(2000);
/** A calendar date, `YYYY-MM-DD`. */
export const CalendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine(
    (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    'must be a real date',
  )
  .meta({ format: 'date' });

export const PassportStatus = z.enum(['DRAFT', 'SIGNED']);
export type PassportStatus = z.infer<typeof PassportStatus>;

const nullableText = z.string().nullable();

export const PassportAddress = z.object({
  street: nullableText,
  house_number: nullableText,
  house_number_extra: nullableText,
  zip_code: nullableText,
  place: nullableText,
  country: nullableText,
});

/** Annex VIII point 1 (a): the building and its current energy performance. */
export const PassportBuilding = z.object({
  address: PassportAddress,
  estate_type: nullableText,
  estate_format: nullableText,
  year_built: z.number().nullable(),
  habitable_space_m2: z.number().nullable(),
  region: Region,
  /** The scale of score and label: the region's EPC or the Dutch energy label. */
  scale: EnergyEfficiencyType,
  epc_label: z.string(),
  epc_score: z.number(),
  primary_energy_kwh_m2: z.number().nullable().meta({ description: 'Primary energy per m2 of habitable space and year.' }),
  primary_energy_kwh_per_year: z.number(),
  heating_need_kwh_per_year: z.number(),
  co2_kg_year: z.number(),
  energy_cost_eur_per_year: money(),
  data_quality: z.object({
    confidence_score: z.number().min(0).max(1),
    quality_label: QualityLabel,
    /** Where each input came from. */
    sources: z.record(z.string(), DataSource),
    /** Inputs given by the client or read from a certificate or a measurement (INPUT, EPC_DOCUMENT, LIDAR, PROVIDER). */
    measured: z.array(z.string()),
    /** Inputs the energy model filled with a default (MODEL): what the site visit should check. */
    model_defaults: z.array(z.string()),
    flags: z.array(z.object({ field: z.string(), code: z.string(), message: z.string() })),
  }),
});

/** What the advisor changed on a step (null: the planner's figures stand). */
export const PassportStepOverride = z.object({
  quantity: z.number().nullable(),
  estimated_cost: money().nullable(),
  note: z.string(),
});

export const PassportSupportingWork = z.object({
  renovation_component_type: z.string(),
  title: z.string(),
  quantity: z.number(),
  unit: z.string(),
  estimated_cost: money(),
});

/** Annex VIII point 1 (b)-(d) and point 2: one stage of the roadmap. */
export const PassportStep = z.object({
  /** 1.. in the passport's order (after the advisor's reordering). */
  order: z.number().int().min(1),
  /** The step's order in the trajectory it came from: the key a PATCH names it by. */
  plan_order: z.number().int().min(1),
  phase: nullableText,
  element: nullableText,
  root_renovation_component_type: z.string(),
  renovation_component_type: z.string(),
  title: z.string(),
  quantity: z.number(),
  unit: z.string(),
  /** The works besides the main item (scaffolding, architect, ...). */
  supporting_works: z.array(PassportSupportingWork),
  /** The product or performance the works must reach (from the planner when it gives one). */
  specification: StepSpecification.nullable(),
  rationale: z.string(),
  epc_label_after: z.string(),
  epc_score_after: z.number(),
  energy_savings_kwh_per_year: z.number(),
  cost_savings_eur_per_year: money(),
  co2_savings_kg_per_year: z.number(),
  estimated_cost: money(),
  estimated_vat_cost: money(),
  subsidy_amount: money(),
  net_cost: money(),
  grant_conditions: GrantConditions.nullable(),
  financing: Financing.nullable(),
  heat_pump_kw: z.number().nullable(),
  lifetime_years: z.number().nullable(),
  maintenance: nullableText,
  planned_year: z.number().int().nullable(),
  override: PassportStepOverride.nullable(),
});
export type PassportStep = z.infer<typeof PassportStep>;

export const PassportTotals = z.object({
  estimated_cost: money(),
  estimated_vat_cost: money(),
  subsidy_amount: money(),
  total_estimated_cost_incl_vat: money(),
  net_cost: money(),
  energy_savings_kwh_per_year: z.number(),
  cost_savings_eur_per_year: money(),
  co2_savings_kg_per_year: z.number(),
});

export const PassportMilestone = z.object({
  kind: z.string(),
  rule_id: z.string(),
  label: z.string(),
  description: z.string(),
  source: z.string(),
  deadline: nullableText,
  applies_because: nullableText,
  /** The passport step (`order`) that first reaches it; null when the roadmap does not. */
  reached_by_step: z.number().int().nullable(),
});

export const PassportEnergyPrice = z.object({
  carrier: z.string(),
  eur_per_kwh: z.number(),
});

export const PassportAssumptions = z.object({
  price_year: z.number().int(),
  energy_prices: z.object({ year: z.number().int(), country: z.string(), source: z.string(), prices: z.array(PassportEnergyPrice) }),
  income_category: nullableText,
  model_version: z.string(),
  catalogue_version: z.string(),
  calibration: MeteredCalibration.nullable(),
  expected_price_error: z.object({ average_pct: z.number(), standard_deviation_pct: z.number(), at_least: z.boolean() }),
  /** The planner's own statements of what the figures assume. */
  notes: z.array(z.string()),
  /** How the advisor's edits were recomputed. */
  edits_method: z.string(),
});

export const AdviceContact = z.object({ name: z.string(), url: z.string(), phone: z.string(), source: z.string() });

export const SiteVisit = z.object({
  date: CalendarDate,
  advisor_name: text,
  accreditation_number: text,
  notes: z.string().max(4000).nullable(),
});
export type SiteVisit = z.infer<typeof SiteVisit>;

/** The passport's document: what is hashed and signed. */
export const RenovationPassportContent = z.object({
  building: PassportBuilding,
  steps: z.array(PassportStep),
  totals: PassportTotals,
  target: z.object({
    label: z.string(),
    year: z.number().int(),
    reached: z.boolean(),
    reached_by_step: z.number().int().nullable(),
    source: z.string(),
  }),
  milestones: z.array(PassportMilestone),
  assumptions: PassportAssumptions,
  advice_contact: AdviceContact,
  site_visit: SiteVisit.nullable(),
});
export type RenovationPassportContent = z.infer<typeof RenovationPassportContent>;

export const PassportSigner = z.object({ advisor_name: z.string(), accreditation_number: z.string() });

/** `GET /v1/renovation-passports/{id}`. */
export const RenovationPassport = z
  .object({
    id: Uuid,
    version: z.number().int().min(1).meta({ description: '1, 2, ... per estate: a new passport of the same estate takes the next.' }),
    status: PassportStatus,
    estate_id: Uuid,
    calculation_job_id: Uuid,
    ...stamps,
    signed_at: Timestamp.nullable(),
    signed_by: PassportSigner.nullable(),
    content_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable()
      .meta({ description: 'SHA-256 (hex) of the RFC 8785 canonical JSON of `content`; set when signed.' }),
    signature: z.string().nullable().meta({
      description:
        'Compact JWS (EdDSA) over `{ passport_id, version, estate_id, content_sha256, signed_by, signed_at }`; keys at /.well-known/jwks.json.',
    }),
    verification_url: z
      .string()
      .nullable()
      .meta({ description: 'Public page (no token) showing the summary, the hash and whether the signature verifies.' }),
    webhook_url: z.string().nullable().meta({
      description:
        'Where `renovation_passport.signed` is sent when the passport is signed (given when it was drafted), signed with the webhook secret of the API client that drafted it; null: no webhook.',
    }),
    content: RenovationPassportContent,
  })
  .meta({ title: 'RenovationPassport' });
export type RenovationPassport = z.infer<typeof RenovationPassport>;

/** What the signature carries (the JWS payload). */
export const PassportSignaturePayload = z.object({
  passport_id: Uuid,
  version: z.number().int(),
  estate_id: Uuid,
  content_sha256: z.string(),
  signed_by: PassportSigner,
  signed_at: Timestamp,
});
export type PassportSignaturePayload = z.infer<typeof PassportSignaturePayload>;

// ---- HTTP bodies ----

export const CreatePassportBody = z.strictObject({
  calculation_job_id: Uuid,
  /** Called with `renovation_passport.signed` when this passport is signed (docs/webhooks.md). */
  webhook_url: httpUrl().optional(),
});

/** One step edit, by the step's `plan_order`: drop it, or override its quantity or cost (with a note). */
export const PassportStepEdit = z
  .strictObject({
    plan_order: z.number().int().min(1),
    drop: z.boolean().optional(),
    quantity: z.number().positive().max(1_000_000).optional(),
    estimated_cost: z.number().min(0).max(10_000_000).optional(),
    note: note.optional(),
  })
  .refine((e) => (e.quantity === undefined && e.estimated_cost === undefined) || e.note !== undefined, {
    message: 'note is required with a quantity or cost override',
    path: ['note'],
  });
export type PassportStepEdit = z.infer<typeof PassportStepEdit>;

export const UpdatePassportBody = z
  .strictObject({
    site_visit: z.strictObject({
      date: CalendarDate,
      advisor_name: text,
      accreditation_number: text,
      notes: z.string().max(4000).nullable().optional(),
    }),
    steps: z.array(PassportStepEdit).max(100),
    /** The steps' new order, by `plan_order` (every step not dropped, once). */
    step_order: z.array(z.number().int().min(1)).max(100),
  })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: 'must change at least one field' })
  .meta({ minProperties: 1 });
export type UpdatePassportBody = z.infer<typeof UpdatePassportBody>;

export const SignPassportBody = z.strictObject({ advisor_name: text, accreditation_number: text });
export type SignPassportBody = z.infer<typeof SignPassportBody>;

export const PassportPdfQuery = z.strictObject({ language: ReportLanguage.optional() });

/** The service's answer for the PDF: the gateway streams the blob. */
export const PassportFile = z.object({ blob_key: z.string(), name: z.string(), mimetype: z.string() });
export type PassportFile = z.infer<typeof PassportFile>;

export const PassportVerificationQuery = z.object({ lang: z.string().max(16).optional() });

// ---- events (stream `renovation-passports-<estate_id>`: every passport of one estate, so versions count up without gaps) ----

export const PassportEvents = {
  RenovationPassportDrafted: z.object({
    passport_id: Uuid,
    version: z.number().int().min(1),
    estate_id: Uuid,
    organization_id: Uuid,
    calculation_job_id: Uuid,
    created_at: Timestamp,
    /** The pre-filled content, before any edit. */
    content: RenovationPassportContent,
    /** Where the signature is announced, and the API client whose webhook secret signs it (absent on older events: no webhook). */
    webhook_url: z.string().nullable().optional(),
    client_id: z.string().optional(),
  }),
  RenovationPassportAmended: z.object({
    passport_id: Uuid,
    estate_id: Uuid,
    updated_at: Timestamp,
    /** The advisor's edits so far (cumulative) and the content they give. */
    edits: z.object({ steps: z.array(PassportStepEdit), step_order: z.array(z.number().int()).nullable() }),
    content: RenovationPassportContent,
  }),
  RenovationPassportSigned: z.object({
    passport_id: Uuid,
    estate_id: Uuid,
    signed_at: Timestamp,
    signed_by: PassportSigner,
    content_sha256: z.string(),
    signature: z.string(),
    /**
     * What the `renovation_passport.signed` webhook announces, carried here so that the context that
     * delivers webhooks needs nothing else of the passport (absent on older events).
     */
    version: z.number().int().min(1).optional(),
    calculation_job_id: Uuid.optional(),
    verification_url: z.string().optional(),
    /** The drafter's `webhook_url` and API client (whose webhook secret signs); null: no webhook. */
    webhook: z.object({ url: z.string(), client_id: z.string() }).nullable().optional(),
  }),
} as const;
export type PassportEventType = keyof typeof PassportEvents;
export type PassportEvent = { [K in PassportEventType]: { type: K; data: z.infer<(typeof PassportEvents)[K]> } }[PassportEventType];

// ---- webhook (docs/webhooks.md) ----

/** The `renovation_passport.signed` webhook's `data`: what a bank or a grant office's system needs to fetch and check the passport. */
export const PassportSignedWebhookData = z
  .object({
    id: Uuid,
    version: z.number().int().min(1),
    estate_id: Uuid,
    calculation_job_id: Uuid,
    signed_at: Timestamp,
    content_sha256: z.string().regex(/^[0-9a-f]{64}$/),
    verification_url: z.string(),
  })
  .meta({ title: 'PassportSignedWebhookData' });
export type PassportSignedWebhookData = z.infer<typeof PassportSignedWebhookData>;

export const PASSPORT_WEBHOOK_EVENTS = [
  {
    type: 'renovation_passport.signed',
    description:
      'A renovation passport was signed: `data` names it, its version and estate, and carries `content_sha256` and the public `verification_url`; `GET /v1/renovation-passports/{id}` answers the whole passport.',
  },
] as const;

/** The body of a passport webhook (Standard Webhooks). */
export const PassportWebhookPayload = z.object({
  type: z.literal('renovation_passport.signed'),
  timestamp: Timestamp,
  data: PassportSignedWebhookData,
});

/** Subjects of the passport (reporting context). */
export const PassportSubjects = {
  /** Body CreatePassportBody; reply RenovationPassport (201). */
  create: 'cmd.reporting.create-passport',
  /** Params `passport_id`; reply RenovationPassport. */
  get: 'qry.reporting.get-passport',
  /** Params `estate_id`; reply RenovationPassport[] by version. */
  listForEstate: 'qry.reporting.list-estate-passports',
  /** Params `passport_id`; body UpdatePassportBody; reply RenovationPassport (DRAFT only, else 409). */
  update: 'cmd.reporting.update-passport',
  /** Params `passport_id`; body SignPassportBody; reply RenovationPassport (422 without a site visit, 409 when signed). */
  sign: 'cmd.reporting.sign-passport',
  /** Params `passport_id`, query PassportPdfQuery; reply PassportFile. */
  pdf: 'qry.reporting.passport-pdf',
  /** Public (no actor): params `passport_id`; reply the verification page's data. */
  verification: 'qry.reporting.passport-verification',
} as const;

/** Where the gateway serves the passport's JSON Schema. */
export const PASSPORT_SCHEMA_PATH = '/schemas/renovation-passport.json';

/**
 * The passport resource as a JSON Schema (2020-12), generated from the contract above (one
 * definition): what `/schemas/renovation-passport.json` serves, so anyone can validate a passport
 * without Renopath's code. `$id` is the address it is served at.
 */
export function renovationPassportJsonSchema(publicUrl: string): Record<string, unknown> {
  const schema = z.toJSONSchema(RenovationPassport, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return {
    ...schema,
    $id: `${publicUrl}${PASSPORT_SCHEMA_PATH}`,
    title: 'Renovation passport',
    description: RENOVATION_PASSPORT_DESCRIPTION,
  };
}

const RENOVATION_PASSPORT_DESCRIPTION =
  'A renovation passport after Directive (EU) 2024/1275 (recast EPBD), article 12 and annex VIII: pre-filled by Renopath from a trajectory, completed and signed by an advisor. `content_sha256` is the SHA-256 of the RFC 8785 canonical JSON of `content`; `signature` a compact JWS verifiable with the keys at /.well-known/jwks.json.';
