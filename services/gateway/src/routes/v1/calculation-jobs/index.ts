import { z } from 'zod';
import { trajectoryRequestProblems } from '@renopath/calculations/job/trajectory-checks.ts';
import {
  CalculationJob,
  describedEstateOf,
  EstatesSubjects,
  JobEstate,
  CalculationJobListQuery,
  CalculationJobPage,
  CalculationsSubjects as S,
  EmptyBody,
  TrajectoryRequest,
  WebhookDeliveryView,
} from '@renopath/contracts';
import { HttpError } from '../../../plugins/errors.ts';
import type { MessageInput, RouteDef } from '../../route.ts';

/** Calculation jobs (docs/job-metadata.md) and the synchronous indication (docs/http-contract.md "The indication"). */
const jobs = { prefix: 'v1', auth: 'bearer', scope: 'calculations', tag: 'calculation-jobs' } as const;
const J = '/calculation-jobs/{calculation_job_id}';

/** The trajectory request's rules across fields (422; shared/energy's consistency checks), as their messages. */
const TRAJECTORY_RULES = [
  '{field} cannot be given for roof_type {roof_type}',
  'heating_device {device} is not compatible with heating_type {heating_type}',
  'heating_device {device} cannot be given with heating_type NONE',
  'cavity_wall_width cannot be given when has_cavity_wall is false',
  'has_cavity_wall_insulation cannot be true when has_cavity_wall is false',
  '{field} cannot be given for basement_type NONE',
  'zip_code must be a Dutch postal code (4 digits, optionally followed by 2 letters: 1234, 1234AB or 1234 AB)',
  'zip_code must be a Belgian postal code (4 digits, 1000-9999)',
  'year_built {year} is in the future',
  'year_built {year} is before {earliest}',
  '{field} {value} m2 is more than {ratio} times the habitable space ({habitable} m2): not plausible',
  // The household's metered use (MeteredUse): a reading's month against today, and the readings together.
  '{field} must not be a month in the future',
  '{field} must be a month from 1990 on',
  'metered_use.gas_m3 give gas in kWh or in m3, not both',
  'metered_use.monthly.{i}.month month {month} is given twice',
  'metered_use.monthly.{i} a monthly reading needs gas_kwh, electricity_kwh or fuel_oil_litres',
  'metered_use.monthly {n} months are fewer than the 12 a calibration needs; give twelve or more, or a yearly figure',
  'metered_use needs a yearly figure (gas_kwh, gas_m3, electricity_kwh, fuel_oil_litres or pellets_kg) or monthly readings',
  'metered_use.period_end period_end dates a yearly figure, and none is given',
];

/**
 * A trajectory job's estate first (docs/architecture.md "A calculation job"): the request's business
 * rules (422) before anything is written, then estates describes the estate (creates it, or updates the
 * organization's estate with the same external_id) under the job's Idempotency-Key, and the job is
 * created on it, with the score the estate holds.
 */
async function describeJobEstate(input: MessageInput, ask: (subject: string, input: MessageInput) => Promise<unknown>) {
  const request = input.body as TrajectoryRequest;
  const problems = trajectoryRequestProblems(request, new Date());
  if (problems.length > 0) throw new HttpError(422, problems);
  const estate = JobEstate.parse(
    await ask(EstatesSubjects.describeEstateForJob, { params: {}, query: {}, body: describedEstateOf(request) }),
  );
  return { ...input, query: { estate_id: estate.id, estate_exists: estate.existed, estate_epc_score: estate.epc_score } };
}

export const calculationJobRoutes: RouteDef[] = [
  {
    ...jobs,
    method: 'POST',
    path: '/calculation-jobs/suggested-renovation-trajectory-calculation',
    subject: S.createTrajectoryJob,
    operationId: 'createTrajectoryJob',
    rules: TRAJECTORY_RULES,
    body: TrajectoryRequest,
    invalidBodyStatus: 406,
    status: 200,
    reply: CalculationJob,
    prepare: describeJobEstate,
    // The answer is the job as calculations' view holds it, and names the estate estates wrote, each
    // read back before its context answered: GET /calculation-jobs/{id} and GET /estates/{estate_id}
    // find them, the job by its creator (calculations' copy of the estate is not read for them). So
    // nothing more is waited for: not the other contexts' copies of the estate, and not the job's
    // consequences, which come when it finishes. A settle round here was two more waits per job.
    settles: [],
    summary:
      'Start a suggested-renovation-trajectory job for a property (and create or update its estate); poll the job until FINISHED. 406: per-property violations; 422: inconsistent data (docs/http-contract.md "Trajectory jobs")',
    errors: [401, 403, 406, 422],
  },
  {
    ...jobs,
    method: 'GET',
    path: '/calculation-jobs',
    subject: S.listJobs,
    operationId: 'listCalculationJobs',
    query: CalculationJobListQuery,
    status: 200,
    reply: CalculationJobPage,
    summary: "The organization's jobs, newest first (extension: external_id, page, page_size)",
    errors: [400, 401, 403],
  },
  {
    ...jobs,
    method: 'GET',
    path: J,
    subject: S.getJob,
    operationId: 'getCalculationJob',
    ids: ['calculation_job_id'],
    status: 200,
    reply: CalculationJob,
    summary: 'One job; `metadata` holds the trajectory once FINISHED (docs/job-metadata.md)',
    errors: [401, 403, 404],
  },
  {
    ...jobs,
    method: 'POST',
    path: `${J}/stop`,
    subject: S.stopJob,
    operationId: 'stopCalculationJob',
    ids: ['calculation_job_id'],
    body: EmptyBody,
    status: 200,
    reply: CalculationJob,
    summary: 'Stop a job that has not finished (extension; no body, or {}); 409 when it already has',
    errors: [400, 401, 403, 404, 409],
  },
  {
    ...jobs,
    method: 'GET',
    path: `${J}/webhook-deliveries`,
    subject: S.webhookDeliveries,
    operationId: 'listWebhookDeliveries',
    ids: ['calculation_job_id'],
    status: 200,
    reply: z.array(WebhookDeliveryView),
    summary: "The job's webhook deliveries and every attempt (extension, docs/webhooks.md)",
    errors: [401, 403, 404],
  },
];
