import { z } from 'zod';
import {
  Country,
  EcoFacility,
  EstateFormat,
  EstateRoofType,
  EstateType,
  GlazingType,
  GroundFloorType,
  HeatingDevice,
  HeatingType,
  InsulationLevel,
  QualityLabel,
  RoofType,
  SanitaryHeatingDevice,
  VentilationType,
} from './enums.ts';
import { stamps, Timestamp, Uuid } from './identity.ts';
import { paginated } from './renovations.ts';
import { PropertyDescription } from './trajectory-request.ts';
import { TrajectoryJobMetadata } from './trajectory.ts';

/**
 * Calculations context (the interface's "Calculation job", "Synchronous indication request";
 * docs/http-contract.md "Trajectory jobs", "The indication"). The job endpoints and their workers arrive with the calculation-jobs issue; the
 * shapes are fixed here so every context builds on the same names.
 */

export const CalculationJobType = z.enum([
  'EPC_DOCUMENT_PROCESSING',
  'ENERGY_EFFICIENCY_INDICATION',
  'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION',
]);
export const CalculationJobStatus = z.enum(['NOT_STARTED', 'RUNNING', 'FINISHED', 'FAILED', 'STOPPED']);
export type CalculationJobType = z.infer<typeof CalculationJobType>;
export type CalculationJobStatus = z.infer<typeof CalculationJobStatus>;

/**
 * A schema the service keeps loose (a record it writes itself) whose published shape is the named
 * contract given here: the OpenAPI document refers to that contract in its place.
 */
export const DOCUMENTED_AS = 'x-renopath-documented-as';

/** A calculation job: every field always present (null when not known yet). */
export const CalculationJob = z.object({
  id: Uuid,
  ...stamps,
  external_id: z.string().nullable(),
  deactivated_at: Timestamp.nullable(),
  calculation_job_type: CalculationJobType,
  calculation_job_status: CalculationJobStatus,
  /**
   * `{}` until the job finishes; then the trajectory (or the EPC document's reading), or `{ error }` once
   * FAILED. Written by the calculations service as a plain record; the OpenAPI document shows its
   * shapes, `CalculationJobMetadata` below (docs/job-metadata.md).
   */
  metadata: z.record(z.string(), z.unknown()).meta({ [DOCUMENTED_AS]: 'CalculationJobMetadata' }),
  estate_id: Uuid.nullable(),
  /** The request's `title`. */
  name: z.string().nullable(),
  description: z.string().nullable(),
  expires_at: Timestamp.nullable(),
  published_at: Timestamp.nullable(),
});
export type CalculationJob = z.infer<typeof CalculationJob>;

// ---- the synchronous energy-efficiency indication (old style) ----

/** `POST /calculations?calculation_type=ENERGY_EFFICIENCY`: other values are 400. */
export const IndicationCalculationType = z.enum(['ENERGY_EFFICIENCY']);
export const IndicationQuery = z.strictObject({ calculation_type: IndicationCalculationType });

const atLeastOne = () => z.number().min(1).max(1_000_000);

/**
 * The old-style indication body, every field under the interface's name. `year_built` and
 * `habitable_space_m2` are required (nothing can be indicated without them); the rest is filled from
 * the typology of the home's age when missing. `zip_code`, `country` and `estate_format` are
 * extensions (default: Flanders, semi-detached).
 */
export const IndicationRequest = z.strictObject({
  year_built: z.number().int().min(1),
  eco_facilities: z.array(EcoFacility).max(EcoFacility.options.length).optional(),
  estate_roof_type: RoofType.optional(),
  habitable_space_m2: atLeastOne(),
  outer_wall_insulation_type: InsulationLevel.optional(),
  roof_insulation_type: InsulationLevel.optional(),
  window_type: GlazingType.optional(),
  ventilation_type: VentilationType.optional(),
  heating_device: HeatingDevice.optional(),
  ground_floor_type: GroundFloorType.optional(),
  ground_floor_insulation_type: InsulationLevel.optional(),
  estate_type: EstateType.optional(),
  sanitary_heating_device: SanitaryHeatingDevice.optional(),
  heating_type: HeatingType.optional(),
  // extensions
  zip_code: z.string().min(1).max(16).optional(),
  country: Country.optional(),
  estate_format: EstateFormat.optional(),
});
export type IndicationRequest = z.infer<typeof IndicationRequest>;

export const IndicationStatus = z.enum(['FINISHED', 'FAILED']);

/** The indication record: `metadata` holds the result and its disclaimer (docs/http-contract.md "The indication"). */
export const IndicationRecord = z.object({
  id: Uuid,
  calculation_status: IndicationStatus,
  calculation_type: IndicationCalculationType,
  metadata: z
    .object({
      epc_score: z.number().nullable(),
      epc_label: z.string().nullable(),
      energy_efficiency_type: z.string().nullable(),
      region: z.string().nullable(),
      confidence_score: z.number().nullable(),
      disclaimer: z.string(),
    })
    .partial()
    .extend({ disclaimer: z.string() }),
});
export type IndicationRecord = z.infer<typeof IndicationRecord>;

// ---- the jobs' paths, queries, commands and events ----

/** `GET /v1/calculation-jobs` (extension): the caller's organization's jobs, newest first. */
export const CalculationJobListQuery = z.strictObject({
  external_id: z.string().min(1).max(255).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export type CalculationJobListQuery = z.infer<typeof CalculationJobListQuery>;

/** The pagination envelope of the interface's renovation search, around jobs. */
export const CalculationJobPage = paginated(CalculationJob);

/**
 * A job's webhook delivery and every attempt at it, as recorded (extension:
 * `GET /v1/calculation-jobs/{id}/webhook-deliveries`). Every field the service writes is listed: the
 * schema is closed, so a generated client would lack the ones left out.
 */
/**
 * The webhook events a delivery carries: a job's end, a portfolio run's end (its `job_id` is then the
 * run's id), or a renovation passport's signature (its `job_id` is then the passport's id).
 */
export const WebhookDeliveryType = z.enum([
  'calculation_job.finished',
  'calculation_job.failed',
  'calculation_job.stopped',
  'portfolio_run.finished',
  'renovation_passport.signed',
]);

export const WebhookDeliveryView = z.object({
  webhook_id: z.string(),
  job_id: Uuid,
  type: WebhookDeliveryType,
  url: z.string(),
  status: z.enum(['PENDING', 'DELIVERED', 'GAVE_UP']),
  attempts: z.array(
    z.object({
      attempt: z.number().int(),
      at: Timestamp,
      status_code: z.number().int().nullable(),
      error: z.string().nullable(),
      duration_ms: z.number(),
    }),
  ),
  /** When the next attempt is due; null unless PENDING. */
  next_attempt_at: Timestamp.nullable(),
  /** When a receiver answered 2xx; null unless DELIVERED. */
  delivered_at: Timestamp.nullable(),
  /** When the service stopped trying; null unless GAVE_UP. */
  gave_up_at: Timestamp.nullable(),
  /** Why it stopped: every attempt failed, or the URL was refused before any request (a private address, a wrong scheme). */
  gave_up_reason: z.enum(['ATTEMPTS_EXHAUSTED', 'URL_REFUSED']).nullable(),
});
export type WebhookDeliveryView = z.infer<typeof WebhookDeliveryView>;

/** Who created a job: the verified caller at creation, kept so the workflow acts as them later. */
export const JobActor = z.object({ user_id: Uuid, organization_id: Uuid, client_id: z.string() });

/** Why a job failed (`metadata.error` of a FAILED job, docs/job-metadata.md). */
export const JobError = z.object({ code: z.string(), message: z.string() });
export type JobError = z.infer<typeof JobError>;

/** One renovation item of a trajectory job's plan: a step's measure, or a measure joined to the step (ventilation). */
export const PlannedRenovationItem = z.object({
  renovation_component_type: z.string(),
  /** The kind of roof the step is placed on; null for a step on no roof. */
  roof_kind: EstateRoofType.nullable(),
  quantity: z.number(),
  /** The step's `order` in the plan. */
  step: z.number().int().min(1),
});
export type PlannedRenovationItem = z.infer<typeof PlannedRenovationItem>;

/**
 * What a FINISHED trajectory job's plan asks of the contexts that follow `CalculationJobFinished`
 * (docs/architecture.md "A calculation job"): estates writes the home as the job filled it, a roof of
 * each kind the steps need (`roofIdOfJob`) when it has none, and the quality label; renovations makes
 * the renovation `renovationIdOfJob(job_id)` with the items. Each context applies its own part once
 * per job; calculations sends neither a command.
 */
export const TrajectoryJobConsequences = z.object({
  estate_id: Uuid,
  /** The home as the EPC document and the providers filled it (null when they added nothing). */
  estate_update: PropertyDescription.nullable(),
  /** The roof kinds the renovation's steps are placed on. */
  roof_kinds: z.array(EstateRoofType),
  renovation: z.object({ name: z.string().nullable(), year: z.number().int(), items: z.array(PlannedRenovationItem) }),
  quality: z.object({ confidence_score: z.number().min(0).max(1), quality_label: QualityLabel }),
});
export type TrajectoryJobConsequences = z.infer<typeof TrajectoryJobConsequences>;

/**
 * The estate a `CalculationJobFinished` event's consequences are for, read before its contract parses
 * it (the order key of the consumers that apply them: one estate's jobs in the order they finished);
 * the event's stream, its job, when it names none.
 */
function estateOfFinishedJob(event: { stream: string; data: unknown }): string {
  const consequences = (event.data as { consequences?: { estate_id?: unknown } } | null)?.consequences;
  return typeof consequences?.estate_id === 'string' ? consequences.estate_id : event.stream;
}

/** A trajectory job's plan as its worker reports it: the FINISHED metadata but `renovation_id`, and the consequences but the estate. */
export const TrajectoryJobPlan = z.object({
  result: z.record(z.string(), z.unknown()),
  consequences: TrajectoryJobConsequences.omit({ estate_id: true }),
});
export type TrajectoryJobPlan = z.infer<typeof TrajectoryJobPlan>;

/**
 * Events of a job stream (`calculation-job-<id>`). The request is stored as sent (validated), so
 * a worker that resumes a job after a crash computes from the same inputs.
 */
export const CalculationJobEvents = {
  CalculationJobCreated: z.object({
    job_id: Uuid,
    calculation_job_type: CalculationJobType,
    actor: JobActor,
    /** The trajectory request (SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION) or `{ epc_url }` (EPC_DOCUMENT_PROCESSING). */
    request: z.record(z.string(), z.unknown()),
    /** A trajectory job's estate, which estates described for the request before the job was created. */
    estate_id: Uuid.nullable(),
    /** True when the job's estate existed already (same organization and external_id): the job updated it. */
    estate_exists: z.boolean(),
    /** The score the estate holds when the request gives none (the client's own, on an existing estate): the plan is calibrated on it. */
    estate_epc_score: z.number().nullable().optional(),
    external_id: z.string().nullable(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    webhook_url: z.string().nullable(),
    parent_job_id: Uuid.nullable(),
    expires_at: Timestamp,
  }),
  /** Jobs created before their estate was described at creation: the estate linked afterwards (read for their streams only). */
  CalculationJobEstateLinked: z.object({ job_id: Uuid, estate_id: Uuid, epc_score: z.number().nullable().optional() }),
  /** A worker took the job under a lease; `attempt` counts takes (3 at most). */
  CalculationJobStarted: z.object({ job_id: Uuid, attempt: z.number().int().min(1), worker_id: z.string(), lease_until: Timestamp }),
  /** The worker of that attempt, still running it, pushed its lease's end out (a job longer than a third of the lease). */
  CalculationJobLeaseRenewed: z.object({ job_id: Uuid, attempt: z.number().int().min(1), lease_until: Timestamp }),
  /**
   * The job's result (`metadata`, what GET answers); a trajectory job's also what its plan asks of the
   * estates and renovations contexts, which follow this event (`consequences`; absent on other jobs).
   */
  CalculationJobFinished: z.object({
    job_id: Uuid,
    attempt: z.number().int().min(1),
    metadata: z.record(z.string(), z.unknown()),
    consequences: TrajectoryJobConsequences.optional(),
  }),
  CalculationJobFailed: z.object({ job_id: Uuid, error: JobError }),
  CalculationJobStopped: z.object({ job_id: Uuid }),
  CalculationJobDeactivated: z.object({ job_id: Uuid }),
} as const;

/**
 * How a context follows finished jobs to apply their consequences (estates its estate's fields and
 * roofs, renovations the renovation): the one event it parses, and the key its consumer orders by, so
 * one estate's jobs are applied in the order they finished (the last one's label and renovation stay)
 * while other estates' run alongside.
 */
export const FINISHED_JOBS = {
  events: { CalculationJobFinished: CalculationJobEvents.CalculationJobFinished },
  orderedBy: estateOfFinishedJob,
} as const;
export type CalculationJobEventType = keyof typeof CalculationJobEvents;
export type CalculationJobEvent = {
  [K in CalculationJobEventType]: { type: K; data: z.infer<(typeof CalculationJobEvents)[K]> };
}[CalculationJobEventType];

/** The indication's one event (stream `indication-<id>`): the record as answered. */
export const IndicationEvents = {
  IndicationCalculated: z.object({ actor: JobActor, request: z.record(z.string(), z.unknown()), record: IndicationRecord }),
} as const;

/**
 * The estate a trajectory job describes, as estates answered the gateway's `describe-estate-for-job`
 * before the job is created (the message's query; no HTTP client sends it).
 */
export const TrajectoryJobEstate = z.object({
  estate_id: Uuid,
  /** Whether the estate existed before (the organization's estate with the request's external_id). */
  estate_exists: z.boolean().optional(),
  estate_epc_score: z.number().nullable().optional(),
});
export type TrajectoryJobEstate = z.infer<typeof TrajectoryJobEstate>;

/** Subjects of the calculations context. */
export const CalculationsSubjects = {
  createTrajectoryJob: 'cmd.calculations.create-trajectory-job',
  getJob: 'qry.calculations.get-job',
  listJobs: 'qry.calculations.list-jobs',
  stopJob: 'cmd.calculations.stop-job',
  webhookDeliveries: 'qry.calculations.webhook-deliveries',
  createIndication: 'cmd.calculations.create-indication',
  listIndications: 'qry.calculations.list-indications',
  getIndication: 'qry.calculations.get-indication',
  /** Internal (workers, not HTTP): take a job under a lease. Reply: WorkAssignment, or null when it is not to be run. */
  claimJob: 'cmd.calculations.claim-job',
  /** Internal (workers): the result of an attempt; refused unless that attempt still holds the job. */
  completeJob: 'cmd.calculations.complete-job',
  /** Internal (workers): an EPC document job for a trajectory job with `epc_url`, created once per parent. */
  childDocumentJob: 'cmd.calculations.child-document-job',
  /** Internal (workers): the attempt still runs; its lease is pushed out. Reply: RenewLeaseReply. */
  renewLease: 'cmd.calculations.renew-lease',
} as const;

/** What a worker gets when it takes a job. */
export const WorkAssignment = z.object({
  job_id: Uuid,
  attempt: z.number().int(),
  calculation_job_type: CalculationJobType,
  actor: JobActor,
  request: z.record(z.string(), z.unknown()),
  estate_id: Uuid.nullable(),
  lease_until: Timestamp,
  /** The score the client gave on the job's existing estate, when the request gives none: the plan is calibrated on it. */
  estate_epc_score: z.number().nullable().optional(),
  /** The W3C trace context of the request that created the job, when the process that hands it out knows it: the run continues that trace. */
  traceparent: z.string().optional(),
  /** That request's correlation id: the run's log lines and the job's result carry it. */
  correlation_id: z.string().optional(),
});
export type WorkAssignment = z.infer<typeof WorkAssignment>;

/** A worker asks for a job (`cmd.calculations.claim-job`), waiting up to `wait_ms` for one. */
export const ClaimJobBody = z.object({ worker_id: z.string().min(1).max(200), wait_ms: z.number().int().min(0).max(30_000) });
export type ClaimJobBody = z.infer<typeof ClaimJobBody>;
/** A worker asks for the EPC document job of the trajectory job it runs (`cmd.calculations.child-document-job`). */
export const ChildDocumentJobBody = z.object({ parent_job_id: z.uuid(), worker_id: z.string().min(1).max(200) });
export type ChildDocumentJobBody = z.infer<typeof ChildDocumentJobBody>;

/** A worker says an attempt still runs (`cmd.calculations.renew-lease`). */
export const RenewLeaseBody = z.object({ job_id: Uuid, attempt: z.number().int().min(1) });
export type RenewLeaseBody = z.infer<typeof RenewLeaseBody>;
/** The lease's new end, or null when the attempt no longer holds the job (finished, stopped, or taken by another attempt). */
export const RenewLeaseReply = z.object({ lease_until: Timestamp.nullable() });
export type RenewLeaseReply = z.infer<typeof RenewLeaseReply>;

export const CompleteJobCommand = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('FINISHED'), job_id: Uuid, attempt: z.number().int(), metadata: z.record(z.string(), z.unknown()) }),
  /** A trajectory job's plan: the job is FINISHED with its result, and the other contexts follow that event. */
  z.object({ outcome: z.literal('PLANNED'), job_id: Uuid, attempt: z.number().int(), plan: TrajectoryJobPlan }),
  z.object({ outcome: z.literal('FAILED'), job_id: Uuid, attempt: z.number().int(), error: JobError }),
]);
export type CompleteJobCommand = z.infer<typeof CompleteJobCommand>;

// ---- what a job's `metadata` and its webhooks carry (published in the OpenAPI document) ----

/** A FINISHED trajectory job's `metadata`: the plan, its renovation, and the EPC document job it read (null without `epc_url`). */
export const FinishedTrajectoryJobMetadata = TrajectoryJobMetadata.extend({ epc_document_job_id: Uuid.nullable() });

/** A FINISHED EPC document job's `metadata`: what could be read from the certificate at `epc_url`. */
export const EpcDocumentJobMetadata = z.object({
  epc_url: z.string(),
  /** Which kind of certificate the document is (a Flemish EPC, a Dutch energy label), or UNKNOWN. */
  kind: z.string(),
  /** The trajectory-request fields the document gave, under their request names. */
  fields: z.record(z.string(), z.unknown()),
  /** Every figure read from the document, by its label there. */
  extracted: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  flags: z.array(z.object({ field: z.string(), code: z.string(), message: z.string() })),
});

/** A FAILED job's `metadata`. */
export const FailedJobMetadata = z.object({ error: JobError });

/** A job's `metadata` by its state: `{}` before it finishes; one of the others after. */
export const CalculationJobMetadata = z.union([
  FinishedTrajectoryJobMetadata,
  EpcDocumentJobMetadata,
  FailedJobMetadata,
  z.strictObject({}),
]);

/** The events a job's `webhook_url` is called with, and the job status each announces. */
export const JOB_WEBHOOK_EVENTS = [
  { type: 'calculation_job.finished', status: 'FINISHED', description: 'The job finished: `data.metadata` holds its result.' },
  { type: 'calculation_job.failed', status: 'FAILED', description: 'The job failed: `data.metadata.error` says why.' },
  { type: 'calculation_job.stopped', status: 'STOPPED', description: 'The job was stopped before it finished.' },
] as const;

/** The body of a job webhook (Standard Webhooks): the event type, when it happened, and the job as `GET` answers it. */
export const JobWebhookPayload = z.object({
  type: z.enum(JOB_WEBHOOK_EVENTS.map((e) => e.type) as [string, ...string[]]),
  timestamp: Timestamp,
  data: CalculationJob,
});
