import type { Logger } from 'pino';
import { TrajectoryRequest, type CompleteJobCommand, type PropertyDescription, type WorkAssignment } from '@renopath/contracts';
import type { CalculationsServiceConfig } from '../config.ts';
import { processEpcDocument } from '../epc-document/index.ts';
import type { GapProviders } from '../gap-filling/index.ts';
import { httpEnergyEfficiencyProvider, httpGeometryProvider } from '../gap-filling/http-providers.ts';
import { inlinePlanner, type Planner } from '../planner/planner-pool.ts';
import { jobTrace, keepingLease, type JobOutcome, type JobRunner, type JobSource } from '../worker/worker.ts';
import { computeTrajectory, type DocumentReading } from './compute-trajectory.ts';

/** Test and embedding seams: other providers than the configured HTTP ones, a clock. */
export interface JobRunnerExtras {
  providers?: GapProviders;
  now?: () => Date;
  /** Where plans are made (start.ts: planner threads as configured); in the calling thread if not given. */
  planner?: Planner;
}

type Flag = { field: string; code: string; message: string };

/**
 * Runs one job (docs/job-metadata.md): for a trajectory, the EPC document first (its own job), then
 * `computeTrajectory` (the gaps, the plan), whose plan the worker reports; the context finishes the
 * job with it, and the estates and renovations contexts follow that event. The worker writes nowhere else.
 */
export function createJobRunner(config: CalculationsServiceConfig, log: Logger, extras: JobRunnerExtras = {}): JobRunner {
  const now = extras.now ?? (() => new Date());
  const planner = extras.planner ?? inlinePlanner();
  const providers: GapProviders = extras.providers ?? {
    ...(config.lidarUrl
      ? {
          geometry: httpGeometryProvider({
            url: config.lidarUrl,
            timeoutMs: config.providerTimeoutMs,
            breaker: config.providerBreaker,
            log,
          }),
        }
      : {}),
    ...(config.energyProviderUrl
      ? {
          energy: httpEnergyEfficiencyProvider({
            url: config.energyProviderUrl,
            timeoutMs: config.providerTimeoutMs,
            breaker: config.providerBreaker,
            log,
          }),
        }
      : {}),
  };
  const documentOptions = {
    allowPrivateNetwork: config.allowPrivateNetwork,
    timeoutMs: config.epcDocument.timeoutMs,
    maxBytes: config.epcDocument.maxBytes,
  };

  async function epcDocument(assignment: WorkAssignment, worker_id: string, jobs: JobSource, url: string): Promise<DocumentReading> {
    // In the parent's trace: the document's events and logs belong to the request that asked for the trajectory.
    const trace = jobTrace(assignment);
    const child = await jobs.childDocumentJob(assignment.job_id, worker_id, trace);
    if (!child.assignment) {
      // Done by an earlier attempt of the parent: its result is in the child's metadata.
      const m = child.job?.metadata ?? {};
      return {
        job_id: child.job_id,
        fields: (m['fields'] ?? {}) as Partial<PropertyDescription>,
        flags: (m['flags'] ?? []) as Flag[],
        failed: child.job?.calculation_job_status === 'FAILED' ? ((m['error'] ?? {}) as DocumentReading['failed']) : null,
      };
    }
    // The child's lease is kept like any job's: a slow download or parse does not hand it to another worker.
    const result = await keepingLease(jobs, child.assignment, log, () => processEpcDocument(url, documentOptions));
    const body: CompleteJobCommand = result.ok
      ? {
          outcome: 'FINISHED',
          job_id: child.job_id,
          attempt: child.assignment.attempt,
          metadata: { epc_url: url, kind: result.kind, fields: result.fields, extracted: result.extracted, flags: result.flags },
        }
      : {
          outcome: 'FAILED',
          job_id: child.job_id,
          attempt: child.assignment.attempt,
          error: { code: result.code, message: result.message },
        };
    await jobs.complete(body, trace);
    return result.ok
      ? { job_id: child.job_id, fields: result.fields, flags: result.flags as Flag[], failed: null }
      : { job_id: child.job_id, fields: {}, flags: [] as Flag[], failed: { code: result.code, message: result.message } };
  }

  async function trajectory(assignment: WorkAssignment, worker_id: string, jobs: JobSource): Promise<JobOutcome> {
    const request = TrajectoryRequest.parse(assignment.request);
    const document = request.epc_url ? await epcDocument(assignment, worker_id, jobs, request.epc_url) : null;
    return computeTrajectory({
      request,
      document,
      estate_epc_score: assignment.estate_epc_score ?? null,
      providers,
      planner,
      year: now().getUTCFullYear(),
      today: now().toISOString().slice(0, 10),
    });
  }

  return async (assignment, worker_id, jobs) => {
    if (assignment.calculation_job_type === 'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION') return trajectory(assignment, worker_id, jobs);
    if (assignment.calculation_job_type === 'EPC_DOCUMENT_PROCESSING') {
      // A document job is run by its parent's worker; one found alone (its parent's worker died) is run here.
      const url = String(assignment.request['epc_url'] ?? '');
      const result = await processEpcDocument(url, documentOptions);
      return result.ok
        ? {
            outcome: 'FINISHED',
            metadata: { epc_url: url, kind: result.kind, fields: result.fields, extracted: result.extracted, flags: result.flags },
          }
        : { outcome: 'FAILED', error: { code: result.code, message: result.message } };
    }
    return {
      outcome: 'FAILED',
      error: { code: 'UNSUPPORTED_JOB_TYPE', message: `${assignment.calculation_job_type} jobs are not run by this service` },
    };
  };
}
