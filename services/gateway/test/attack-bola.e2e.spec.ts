import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticCsvText } from '@renopath/calculations/portfolio-run/testing.ts';
import type { RouteDef } from '../src/routes/route.ts';
import { JPEG, PDF } from './files.ts';
import { ADMIN_TOKEN, multipart, startStack, type Stack } from './stack.ts';

/**
 * BOLA across every id-taking route of the gateway's route table (a new route is walked as it
 * lands): another tenant, and a CLIENT member of another estate, name tenant A's ids and learn
 * nothing (404, never 2xx); tenant A's data is unchanged afterwards.
 */

let stack: Stack;
/** `passports` too, so that a passport write is refused for tenancy (404), not for want of scope (403). */
const ALL_SCOPES = ['estates', 'renovations', 'calculations', 'reports', 'passports', 'organization', 'audit'];
/** Tenant A's ids, by path parameter name; `file_id` differs between files and media. */
let ids: Record<string, string>;
let mediumId: string;
let ownerA: string;
let tenantB: string;
let client: string | null = null;
let clientEstate: string;

/** A valid body per route, so a refusal is the service's tenancy check, never validation. */
const SAMPLE_BODIES: Record<string, unknown> = {
  'PATCH /users/{user_id}': { first_name: 'Mallory' },
  'PATCH /organizations/{organization_id}': { organization_name: 'Hijacked' },
  'POST /organizations/{organization_id}/members': {
    email_address: 'mallory@bola.example',
    first_name: 'Mal',
    last_name: 'Lory',
    member_type: 'EMPLOYEE',
  },
  'PATCH /estates/{estate_id}': { name: 'Hijacked' },
  'POST /estates/{estate_id}/roofs': { estate_roof_type: 'FLAT' },
  'PATCH /estates/{estate_id}/roofs/{roof_id}': { surface_m2: 1 },
  'POST /estates/{estate_id}/floors': { estate_floor_type: 'GROUND_FLOOR' },
  'PATCH /estates/{estate_id}/floors/{floor_id}': { floor_number: 9 },
  'POST /estates/{estate_id}/floors/{floor_id}/rooms': { estate_room_type: 'KITCHEN' },
  'PATCH /estates/{estate_id}/floors/{floor_id}/rooms/{room_id}': { surface_m2: 1 },
  'POST /estates/{estate_id}/floors/{floor_id}/staircases': { estate_staircase_type: 'STRAIGHT' },
  'PATCH /estates/{estate_id}/floors/{floor_id}/staircases/{staircase_id}': { estate_staircase_type: 'SPIRAL' },
  'POST /estates/{estate_id}/members': { email_address: 'mallory@bola.example', first_name: 'Mal', last_name: 'Lory' },
  'PATCH /renovation-passports/{passport_id}': {
    site_visit: { date: '2026-11-30', advisor_name: 'Mal Lory', accreditation_number: 'EP-0000' },
  },
  'POST /renovation-passports/{passport_id}/sign': { advisor_name: 'Mal Lory', accreditation_number: 'EP-0000' },
};
/** Renovation items, in each of their four scopes. */
const sampleBody = (method: string, path: string): unknown =>
  SAMPLE_BODIES[`${method} ${path}`] ??
  (method === 'POST' && path.endsWith('/items')
    ? { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 }
    : method === 'PATCH' && path.endsWith('/items/{item_id}')
      ? { count: 2 }
      : {});

/** The invitation code in the last message to `to` (embedded outbox), accepted. */
async function acceptInvitation(to: string): Promise<boolean> {
  const outbox = await stack.app.inject({
    method: 'GET',
    url: `/admin/outbox?to=${encodeURIComponent(to)}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  if (outbox.statusCode !== 200) return false;
  const messages = outbox.json() as Array<{ text: string }>;
  const candidates = (messages.at(-1)?.text ?? '').match(/[A-Za-z0-9._-]{20,400}/g) ?? [];
  for (const token of candidates) {
    const res = await stack.app.inject({ method: 'POST', url: '/v1/invitations/accept', payload: { token } });
    if (res.statusCode === 200) return true;
  }
  return false;
}

/** Waits for a calculation job to finish; a job that fails or stalls stops the suite. */
async function untilFinished(as: ReturnType<Stack['as']>, id: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = (await as.get(`/v1/calculation-jobs/${id}`)).json().calculation_job_status;
    if (status === 'FINISHED') return;
    if (status === 'FAILED' || status === 'STOPPED' || Date.now() > deadline) throw new Error(`set-up: job ${id} ${status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The created resource; anything but 201 stops the suite with the answer. */
async function made(pending: Promise<{ statusCode: number; body: string; json(): unknown }>): Promise<{ id: string; user_id?: string }> {
  const res = await pending;
  if (res.statusCode !== 201) throw new Error(`set-up: expected 201, got ${res.statusCode}: ${res.body}`);
  return res.json() as { id: string; user_id?: string };
}

beforeAll(async () => {
  stack = await startStack();
  const a = stack.bootstrap;
  ownerA = await stack.clientToken(a.user_id, ALL_SCOPES);
  const as = stack.as(ownerA);
  const estate = await made(
    as.post('/estates', {
      name: 'A home',
      address: { zip_code: '9000', country: 'BE' },
      year_built: 1960,
      estate_format: 'SEMI_OPEN',
      habitable_space_m2: 140,
    }),
  );
  const E = `/estates/${estate.id}`;
  const roof = await made(as.post(`${E}/roofs`, { estate_roof_type: 'INCLINED' }));
  const floor = await made(as.post(`${E}/floors`, { estate_floor_type: 'GROUND_FLOOR' }));
  const room = await made(as.post(`${E}/floors/${floor.id}/rooms`, { estate_room_type: 'LIVING_ROOM' }));
  const staircase = await made(as.post(`${E}/floors/${floor.id}/staircases`, { estate_staircase_type: 'STRAIGHT' }));
  const file = await made(as.upload(`${E}/files`, [{ name: 'file', filename: 'epc.pdf', content: PDF }]));
  const medium = await made(as.upload(`${E}/media`, [{ name: 'file', filename: 'front.jpg', content: JPEG }]));
  const member = await made(as.post(`${E}/members`, { email_address: 'buyer-a@bola.example', first_name: 'Bea', last_name: 'Buyer' }));
  ids = {
    estate_id: estate.id,
    roof_id: roof.id,
    floor_id: floor.id,
    room_id: room.id,
    staircase_id: staircase.id,
    file_id: file.id,
    member_id: member.user_id ?? member.id,
    organization_id: a.organization_id,
    user_id: a.user_id,
  };
  mediumId = medium.id;
  // Later contexts' resources on the same estate, when their routes are served.
  if (stack.routes.some((r) => r.path === '/renovations' && r.method === 'POST')) {
    const renovation = await made(as.post('/renovations', { estate_id: estate.id }));
    const item = await made(as.post(`/renovations/${renovation.id}/items`, { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 }));
    ids['renovation_id'] = renovation.id;
    ids['item_id'] = item.id;
  }
  if (stack.routes.some((r) => r.path === '/calculation-jobs/suggested-renovation-trajectory-calculation')) {
    const job = await as.post('/v1/calculation-jobs/suggested-renovation-trajectory-calculation', {
      year_built: 1960,
      estate_format: 'SEMI_OPEN',
      habitable_space_m2: 140,
      zip_code: '9000',
      country: 'BE',
    });
    if (job.statusCode !== 200) throw new Error(`set-up: job ${job.statusCode}: ${job.body}`);
    const jobId: string = job.json().id;
    ids['calculation_job_id'] = jobId;
    ids['calculation_id'] = (
      await made(as.post('/calculations?calculation_type=ENERGY_EFFICIENCY', { year_built: 1960, habitable_space_m2: 140 }))
    ).id;
    // A passport is drafted from a FINISHED trajectory job only.
    if (stack.routes.some((r) => r.path === '/renovation-passports' && r.method === 'POST')) {
      await untilFinished(as, jobId);
      ids['passport_id'] = (await made(as.post('/v1/renovation-passports', { calculation_job_id: jobId }))).id;
    }
  }
  if (stack.routes.some((r) => r.path === '/portfolio-runs' && r.method === 'POST')) {
    const run = await as.upload('/v1/portfolio-runs', [
      { name: 'file', filename: 'homes.csv', contentType: 'text/csv', content: syntheticCsvText(2, 9) },
    ]);
    if (run.statusCode !== 202) throw new Error(`set-up: portfolio run ${run.statusCode}: ${run.body}`);
    ids['portfolio_run_id'] = run.json().id;
  }
  for (const [name, id] of Object.entries(ids)) expect(id, name).toMatch(/^[0-9a-f-]{36}$/);

  const b = await stack.tenant('Tenant B', 'owner-b@bola.example');
  tenantB = await stack.clientToken(b.user.id, ALL_SCOPES);

  // A CLIENT of tenant A: an accepted member of another estate, never of this one.
  clientEstate = (await made(as.post('/estates', { name: 'Their home' }))).id;
  const invited = await made(
    as.post(`/estates/${clientEstate}/members`, { email_address: 'client@bola.example', first_name: 'Cli', last_name: 'Ent' }),
  );
  if (await acceptInvitation('client@bola.example')) {
    const created = await stack.admin('POST', '/admin/api-clients', {
      user_id: invited.user_id ?? invited.id,
      organization_id: a.organization_id,
      scopes: ALL_SCOPES,
    });
    if (created.statusCode === 201) client = await stack.token(created.json().client_id, created.json().client_secret);
  }
});
afterAll(async () => stack?.close());

const ORDER = { GET: 0, PATCH: 1, POST: 2, DELETE: 3 } as const;

/** Every bearer route that names an id, reads first and deletes last. */
function idRoutes(): RouteDef[] {
  return stack.routes.filter((r) => r.auth === 'bearer' && (r.ids ?? []).length > 0).sort((x, y) => ORDER[x.method] - ORDER[y.method]);
}

function urlOf(route: RouteDef): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'file_id' && route.path.includes('/media/')) return mediumId;
    const id = ids[name];
    if (!id) throw new Error(`no sample id for {${name}} in ${route.path}: add one to the BOLA suite`);
    return id;
  });
  return route.prefix === 'v1' ? `/v1${path}` : path;
}

function call(route: RouteDef, bearer: string) {
  const headers = { authorization: `Bearer ${bearer}` };
  const url = urlOf(route);
  if (route.kind === 'upload') {
    const pdf = route.accept?.includes('application/pdf') ?? true;
    const { payload, contentType } = multipart([{ name: 'file', filename: pdf ? 'evil.pdf' : 'evil.jpg', content: pdf ? PDF : JPEG }]);
    return stack.app.inject({ method: route.method, url, headers: { ...headers, 'content-type': contentType }, payload });
  }
  if (!route.body) return stack.app.inject({ method: route.method, url, headers });
  const key = `${route.method} ${route.path}`;
  const body = sampleBody(route.method, route.path);
  // A route whose body `{}` does not satisfy needs a sample, or the check below would test validation only.
  expect(route.body.safeParse(body).success, `${key}: add a valid sample body to the BOLA suite`).toBe(true);
  return stack.app.inject({ method: route.method, url, headers, payload: body as object });
}

describe('BOLA: every id-taking route, two tenants and a CLIENT', () => {
  it('walks a route table that covers estates, parts, files, members, organizations and users', () => {
    const params = new Set(idRoutes().flatMap((r) => r.ids ?? []));
    expect([...params].sort()).toEqual(
      expect.arrayContaining([
        'estate_id',
        'floor_id',
        'member_id',
        'organization_id',
        'roof_id',
        'room_id',
        'staircase_id',
        'user_id',
        'file_id',
      ]),
    );
    expect(idRoutes().length).toBeGreaterThanOrEqual(30);
  });

  it("answers another tenant's ids with 404 on every route, and changes nothing", async () => {
    const before = (await stack.as(ownerA).get(`/estates/${ids['estate_id']}`)).json();
    const leaks: string[] = [];
    for (const route of idRoutes()) {
      const res = await call(route, tenantB);
      if (res.statusCode !== 404) leaks.push(`${route.method} ${route.path}: ${res.statusCode} ${res.body.slice(0, 120)}`);
      else expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found', message: [expect.any(String)] });
    }
    expect(leaks).toEqual([]);
    const after = (await stack.as(ownerA).get(`/estates/${ids['estate_id']}`)).json();
    const strip = (e: Record<string, unknown>) => JSON.stringify(e, (k, v) => (k === 'url' ? undefined : v));
    expect(strip(after)).toBe(strip(before));
    expect(((await stack.as(ownerA).get('/organizations')).json() as Array<{ organization_name: string }>)[0]!.organization_name).not.toBe(
      'Hijacked',
    );
  });

  it('answers a CLIENT naming an estate they are not a member of with 404, and never lets them change their organization', async () => {
    expect(client, 'the CLIENT accepted their invitation').not.toBeNull();
    const leaks: string[] = [];
    for (const route of idRoutes()) {
      const res = await call(route, client!);
      const onEstate = route.path.startsWith('/estates/');
      // Organization and user routes name their own organization: refused (403/404), never done.
      const ok = onEstate ? res.statusCode === 404 : res.statusCode === 403 || res.statusCode === 404;
      if (!ok) leaks.push(`${route.method} ${route.path}: ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(leaks).toEqual([]);
    // On their own estate they read, and writes are refused.
    expect((await stack.as(client!).get(`/estates/${clientEstate}`)).statusCode).toBe(200);
    expect((await stack.as(client!).patch(`/estates/${clientEstate}`, { name: 'Mine now' })).statusCode).toBe(403);
  });
});
