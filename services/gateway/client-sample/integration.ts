/**
 * An integration as a client of Renopath writes it, against the types `openapi-typescript` generates
 * from `/openapi.json`:
 *
 *     npx openapi-typescript http://localhost:8080/openapi.json -o renopath-api.d.ts
 *
 * `src/openapi/client-generation.int.spec.ts` generates those types from the served document and
 * type-checks this file against them, so a renamed field, a lost status or an untyped reply breaks
 * the build here before it breaks an integrator. It is an example, not part of the service: nothing
 * imports it.
 */
import { Webhook } from 'standardwebhooks';
import type { components, operations, paths, webhooks } from './renopath-api';

type Schemas = components['schemas'];
/** The JSON body of an operation's reply with the given status. */
type Reply<O extends keyof operations, S extends keyof operations[O]['responses']> = operations[O]['responses'][S] extends {
  content: { 'application/json': infer B };
}
  ? B
  : never;
/** The JSON body an operation takes. */
type Body<O extends keyof operations> = operations[O] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type ErrorBody = Schemas['ErrorBody'];

export class RenopathClient {
  private token: string | null = null;

  constructor(
    private readonly baseUrl: string,
    private readonly clientId: string,
    private readonly clientSecret: string,
  ) {}

  /** Client credentials in the two headers the token endpoint takes. */
  async authenticate(): Promise<Reply<'issueToken', 200>> {
    const headers: NonNullable<operations['issueToken']['parameters']['header']> = {
      'x-service-client-id': this.clientId,
      'x-service-client-secret': this.clientSecret,
    };
    const reply = await this.send<Reply<'issueToken', 200>>('POST', '/v1/oauth/token', undefined, headers as Record<string, string>);
    this.token = reply.access_token;
    return reply;
  }

  private async send<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) {
      const error = (await res.json()) as ErrorBody;
      throw new Error(`${error.statusCode} ${error.error}: ${(error.message ?? []).join('; ')}`);
    }
    return (await res.json()) as T;
  }

  createEstate(body: Body<'createEstate'>, idempotencyKey: string) {
    return this.send<Reply<'createEstate', 201>>('POST', '/v1/estates', body, { 'Idempotency-Key': idempotencyKey });
  }

  addRoof(estateId: string, body: Body<'addRoof'>) {
    return this.send<Reply<'addRoof', 201>>('POST', `/v1/estates/${estateId}/roofs`, body);
  }

  startTrajectory(body: Body<'createTrajectoryJob'>) {
    return this.send<Reply<'createTrajectoryJob', 200>>('POST', '/v1/calculation-jobs/suggested-renovation-trajectory-calculation', body);
  }

  getJob(jobId: string) {
    return this.send<Reply<'getCalculationJob', 200>>('GET', `/v1/calculation-jobs/${jobId}`);
  }

  overview(renovationId: string) {
    return this.send<Reply<'getRenovationOverview', 200>>('GET', `/v1/renovations/${renovationId}/overview`);
  }

  grants(renovationId: string) {
    return this.send<Reply<'getGovernmentGrants', 200>>('GET', `/v1/renovations/${renovationId}/government-grants`);
  }

  report(renovationId: string, body: Body<'createReport'>) {
    return this.send<Reply<'createReport', 200>>('POST', `/v1/renovations/${renovationId}/reports`, body);
  }

  searchRenovations(query: NonNullable<operations['searchRenovations']['parameters']['query']>) {
    const params = new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]));
    return this.send<Reply<'searchRenovations', 200>>('GET', `/v1/renovations?${params}`);
  }
}

type Metadata = Schemas['CalculationJobMetadata'];
const isTrajectory = (metadata: Metadata): metadata is Schemas['FinishedTrajectoryJobMetadata'] =>
  'steps' in metadata && 'renovation_id' in metadata;

/** A job's `metadata` once it finished as a trajectory (it is `{}` before, `{ error }` when FAILED). */
function trajectoryOf(job: Schemas['CalculationJob']): Schemas['FinishedTrajectoryJobMetadata'] | null {
  if (job.calculation_job_status === 'FAILED' && 'error' in job.metadata) throw new Error(`job failed: ${String(job.metadata.error.code)}`);
  return job.calculation_job_status === 'FINISHED' && isTrajectory(job.metadata) ? job.metadata : null;
}

export async function integrate(client: RenopathClient): Promise<void> {
  const token = await client.authenticate();
  const expiresAt: number = Date.now() + token.expires_in * 1000;
  void expiresAt;

  const estate = await client.createEstate(
    {
      external_id: 'crm-4711',
      estate_type: 'HOUSE',
      estate_format: 'SEMI_OPEN',
      year_built: 1960,
      habitable_space_m2: 150,
      address: { street: 'Veldstraat', house_number: '12', zip_code: '9000', place: 'Gent', country: 'BE' },
      energy_context: { heating_type: 'GAS', outer_wall_insulation_type: 'NONE', eco_facilities: ['SOLAR_PANELS'] },
    },
    'crm-4711-create',
  );
  const zip: string | null = estate.address.zip_code;
  const heating: Schemas['HeatingType'] | null = estate.energy_context.heating_type;
  const label: Schemas['QualityLabel'] = estate.quality_label;
  void [zip, heating, label];

  const roof = await client.addRoof(estate.id, { estate_roof_type: 'INCLINED', surface_m2: 72, insulation_type: 'LIGHT' });
  const roofType: Schemas['EstateRoofType'] = roof.estate_roof_type;
  void roofType;

  let job = await client.startTrajectory({
    year_built: 1960,
    estate_format: 'SEMI_OPEN',
    habitable_space_m2: 150,
    zip_code: '9000',
    country: 'BE',
    external_id: 'crm-4711',
  });
  while (job.calculation_job_status === 'NOT_STARTED' || job.calculation_job_status === 'RUNNING') {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    job = await client.getJob(job.id);
  }
  const trajectory = trajectoryOf(job);
  if (!trajectory) return;
  for (const step of trajectory.steps) {
    const line: string = `${step.order}. ${step.title}: EUR ${step.net_cost.toFixed(2)} net, label ${step.epc_label_after} after`;
    void line;
  }
  const final: string = trajectory.energy_efficiency_indication;
  const confidence: number = trajectory.confidence_score;
  void [final, confidence, trajectory.totals.total_estimated_cost_incl_vat];

  const overview = await client.overview(trajectory.renovation_id);
  const total: number = overview.summary.total_estimated_cost_incl_vat;
  void total;
  const grants = await client.grants(trajectory.renovation_id);
  for (const [category, group] of Object.entries(grants))
    void [category, group.total_subsidy_amount, group.eligible_renovation_items.map((item) => item.scheme)];

  const report = await client.report(trajectory.renovation_id, { language: 'nl-BE' });
  const download: string = report.url;
  const outdated: boolean = report.is_outdated;
  void [download, outdated];

  // Every page of the renovations, newest first.
  for (let page: number | null = 1; page !== null; ) {
    const result = await client.searchRenovations({ page, page_size: 50, sort_by: 'created_at', sort_order: 'DESC' });
    for (const renovation of result.data) void [renovation.renovation_id, renovation.total_estimated_cost_incl_vat];
    page = result.next_page;
  }
}

/** The receiving end of a job's `webhook_url`: verify the Standard Webhooks signature, then trust the body. */
export function receiveWebhook(secret: string, body: string, headers: Record<string, string>): Schemas['CalculationJob'] {
  const verified = new Webhook(secret).verify(
    body,
    headers,
  ) as webhooks['calculation_job.finished']['post']['requestBody']['content']['application/json'];
  const type: 'calculation_job.finished' | 'calculation_job.failed' | 'calculation_job.stopped' = verified.type;
  void type;
  return verified.data;
}

/** The paths are the document's own: a path that is not served does not type-check here. */
export const PATHS: Array<keyof paths> = ['/v1/oauth/token', '/v1/estates', '/v1/calculation-jobs/{calculation_job_id}', '/v1/renovations'];
