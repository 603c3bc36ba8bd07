import { applyEffect } from '@renopath/catalog';
import {
  propertyOf,
  TrajectoryRequest,
  type DataSource,
  type JobError,
  type PlannedRenovationItem,
  type PropertyDescription,
  type TrajectoryJobPlan,
  type TrajectoryPlan,
} from '@renopath/contracts';
import { crossCheckImpact, fillGaps, type GapProviders } from '../gap-filling/index.ts';
import { PlanRefusedError, type Planner } from '../planner/planner-pool.ts';
import { enrichTrajectory } from '../money/enrich.ts';

type Flag = { field: string; code: string; message: string };

/** What the job's EPC document gave (its own job read it): the fields, its flags, or why it was not used. */
export interface DocumentReading {
  job_id: string;
  fields: Partial<PropertyDescription>;
  flags: Flag[];
  failed: { code?: string; message?: string } | null;
}

export interface TrajectoryInputs {
  request: TrajectoryRequest;
  /** Null without `epc_url`. */
  document: DocumentReading | null;
  /** The score the client gave on the job's existing estate, if any. */
  estate_epc_score?: number | null;
  /** The outside sources asked to fill gaps and to cross-check the impact; none in a test that wants the model alone. */
  providers: GapProviders;
  planner: Planner;
  /** The year the plan is priced in. */
  year: number;
  /** The day the plan is made (YYYY-MM-DD): a household's purchase after it is still to come. */
  today?: string;
}

/** One renovation item of the plan; renovations gives it its id and its roof. */
export type PlannedItem = PlannedRenovationItem;

/**
 * A trajectory job's plan: what the job answers once FINISHED (`result`), and what it asks of the
 * estates and renovations contexts, which follow `CalculationJobFinished` (`consequences`). Computed
 * once per attempt.
 */
export interface JobPlan extends TrajectoryJobPlan {
  /** The FINISHED metadata but `renovation_id`, which is the job's (`renovationIdOfJob`). */
  result: TrajectoryPlan & { epc_document_job_id: string | null };
}

export type Computed = { outcome: 'PLANNED'; plan: JobPlan } | { outcome: 'FAILED'; error: JobError };

/** The renovation items of a plan: each step's measure, and a measure joined to a step as its supporting work (ventilation). */
function plannedItems(plan: TrajectoryPlan): PlannedItem[] {
  return plan.steps.flatMap((s) => [
    { renovation_component_type: s.renovation_component_type, roof_kind: s.roof_kind ?? null, quantity: s.quantity, step: s.order },
    ...s.supporting_works
      .filter((w) => w.joined === true)
      .map((w) => ({ renovation_component_type: w.renovation_component_type, roof_kind: null, quantity: w.quantity, step: s.order })),
  ]);
}

/** The document's values under the client's: a value that differs from the client's is flagged, not taken. */
function withDocument(
  request: TrajectoryRequest,
  given: PropertyDescription,
  doc: DocumentReading,
  sources: Record<string, DataSource>,
  flags: Flag[],
): PropertyDescription {
  flags.push(...doc.flags);
  if (doc.failed) {
    flags.push({
      field: 'epc_url',
      code: doc.failed.code ?? 'EPC_DOCUMENT_FAILED',
      message: `the EPC document was not used: ${doc.failed.message ?? 'it could not be read'}`,
    });
  }
  const merged: Record<string, unknown> = { ...given };
  const added: Record<string, DataSource> = {};
  for (const [field, value] of Object.entries(doc.fields)) {
    if (value === undefined) continue;
    if (merged[field] === undefined) {
      merged[field] = value;
      added[field] = 'EPC_DOCUMENT';
    } else if (JSON.stringify(merged[field]) !== JSON.stringify(value) && field !== 'country') {
      flags.push({
        field,
        code: 'EPC_DOCUMENT_DIFFERS',
        message: `${field} is ${JSON.stringify(merged[field])} in the request but ${JSON.stringify(value)} in the EPC document; the request's value is used`,
      });
    }
  }
  // What the document adds must still make a valid request (it cannot smuggle an inconsistent home in).
  const checked = TrajectoryRequest.safeParse({ ...request, ...merged });
  if (!checked.success) {
    flags.push({
      field: 'epc_url',
      code: 'EPC_DOCUMENT_UNUSABLE',
      message: 'values read from the EPC document were out of range and were not used',
    });
    return given;
  }
  Object.assign(sources, added);
  return propertyOf(checked.data);
}

/**
 * A trajectory job's computation (docs/job-metadata.md): the request, with what its EPC document and
 * the providers add, planned; no bus, no other context. A roof step needs a roof of its kind: a
 * request that did not describe the roof is planned again with the kind the model assumed (a MODEL
 * source), so the renovation's figures are those of the home as the estate will read.
 */
export async function computeTrajectory(inputs: TrajectoryInputs): Promise<Computed> {
  const { request, providers, planner } = inputs;
  const given = propertyOf(request);
  const sources: Record<string, DataSource> = {};
  for (const field of Object.keys(given)) sources[field] = 'INPUT';
  const flags: Flag[] = [];
  let known = inputs.document ? withDocument(request, given, inputs.document, sources, flags) : given;
  // A score the client gave on the estate calibrates the plan as it calibrates the renovation and its
  // reports, which read the estate: one home, one score.
  if (known.energy_efficiency_score === undefined && typeof inputs.estate_epc_score === 'number') {
    known = { ...known, energy_efficiency_score: inputs.estate_epc_score };
    sources['energy_efficiency_score'] = 'INPUT';
  }

  const filled = await fillGaps(known, sources, providers);
  flags.push(...filled.flags);
  let property = filled.property;
  const estate_update = Object.values(filled.sources).some((s) => s === 'EPC_DOCUMENT' || s === 'LIDAR' || s === 'PROVIDER')
    ? property
    : null;

  const planWith = async (p: PropertyDescription): Promise<TrajectoryPlan | Computed> => {
    try {
      return await planner.plan(p, {
        year: inputs.year,
        ...(inputs.today ? { today: inputs.today } : {}),
        sources: filled.sources as never,
        ...(request.household ? { household: request.household } : {}),
      });
    } catch (err) {
      // The model refuses what it cannot describe: an answer about this job, not a crash to retry.
      // A planner thread that died is not an answer: the job is tried again after its lease.
      if (!(err instanceof PlanRefusedError)) throw err;
      return { outcome: 'FAILED', error: { code: 'NOT_PLANNABLE', message: `no trajectory could be computed: ${err.message}` } };
    }
  };
  let planned = await planWith(property);
  if ('outcome' in planned) return planned;
  const roof_kinds = [...new Set(planned.steps.flatMap((s) => (s.roof_kind ? [s.roof_kind] : [])))];
  if (roof_kinds.length > 0 && property.roof_type === undefined) {
    const roof_type = roof_kinds.length > 1 ? 'MIXED' : roof_kinds[0]!;
    property = { ...property, roof_type };
    filled.sources['roof_type'] = 'MODEL';
    planned = await planWith(property);
    if ('outcome' in planned) return planned;
  }

  // The external provider "validates renovation impact on EPC scores" (docs/http-contract.md): its view of
  // the home after every step is compared with the model's; a large gap is a flag, never a change.
  const renovated = plannedItems(planned).reduce<PropertyDescription>(
    (p, item) => applyEffect(item.renovation_component_type, p, item.quantity),
    property,
  );
  const impact = await crossCheckImpact(providers.energy, {
    property,
    renovated,
    scale: planned.energy_efficiency_type,
    model: { score_before: planned.current.epc_score, score_after: planned.final_epc_score },
  });
  flags.push(...impact.flags);
  // The household's own numbers (metered use, loans) on the asset-rated plan: docs/domain.md "Metered use and the money per step".
  const plan: TrajectoryPlan = enrichTrajectory(
    { ...planned, data_quality: { ...planned.data_quality, flags: [...planned.data_quality.flags, ...flags] } },
    { property, sources: filled.sources, household: request.household, metered_use: request.metered_use },
  );
  return {
    outcome: 'PLANNED',
    plan: {
      result: { ...plan, epc_document_job_id: inputs.document?.job_id ?? null },
      consequences: {
        estate_update,
        roof_kinds: [...new Set(plan.steps.flatMap((s) => (s.roof_kind ? [s.roof_kind] : [])))],
        renovation: {
          name: request.title?.trim() || null,
          year: plan.price_year,
          items: plannedItems(plan),
        },
        quality: { confidence_score: plan.confidence_score, quality_label: plan.quality_label },
      },
    },
  };
}
