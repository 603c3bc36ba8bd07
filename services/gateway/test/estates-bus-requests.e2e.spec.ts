import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bus } from '@renopath/platform';
import { EstatesSubjects } from '@renopath/contracts';
import { startStack, type Stack } from './stack.ts';

/**
 * Issue 9: estates answers from its own copy of identity's memberships, never by asking identity on
 * the request path. Every bus request an HTTP request causes is recorded and the identity ones counted.
 */
let stack: Stack;
let owner: string;
let estateId: string;
let invitee: string;
const subjects: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  owner = await stack.token();
  const invited = await stack.as(owner).post(`/organizations/${stack.bootstrap.organization_id}/members`, {
    email_address: 'manager@bus.example', first_name: 'Mia', last_name: 'Manager', member_type: 'EMPLOYEE',
  });
  expect(invited.statusCode).toBeLessThan(300);
  invitee = invited.json().user_id;
  const created = await stack.as(owner).post('/estates', { name: 'Traced', address: { zip_code: '9000', country: 'BE' } });
  expect(created.statusCode).toBe(201);
  estateId = created.json().id;
  // Count from here on: the token is verified with keys the gateway already holds.
  const bus: Bus = stack.running.bus;
  const request = bus.request.bind(bus);
  bus.request = (subject, payload, options) => (subjects.push(subject), request(subject, payload, options));
});
afterAll(async () => stack?.close());

const traced = async (call: () => Promise<{ statusCode: number; body: string }>) => {
  subjects.length = 0;
  const res = await call();
  return { res, subjects: [...subjects] };
};
/**
 * Requests to identity on the request path. The gateway's settle round after a write
 * (`qry.<context>.settle`, read-your-writes across contexts) asks every context whether it has caught
 * up; it is the gateway's protocol, not estates asking identity, and is counted apart.
 */
const toIdentity = (list: string[]) => list.filter((s) => s.split('.')[1] === 'identity' && s !== 'qry.identity.settle');
const settles = (list: string[]) => list.filter((s) => s.endsWith('.settle'));

describe('estates answer without identity on the request path', () => {
  it('GET /estates/{id} makes no bus request to identity', async () => {
    const { res, subjects: seen } = await traced(() => stack.as(owner).get(`/estates/${estateId}`));
    expect(res.statusCode, res.body).toBe(200);
    expect(seen.some((s) => s.split('.')[1] === 'estates')).toBe(true);
    expect(toIdentity(seen)).toEqual([]);
  });

  it('PATCH /estates/{id} makes no bus request to identity, even when it checks a managing user', async () => {
    const plain = await traced(() => stack.as(owner).patch(`/estates/${estateId}`, { name: 'Traced again' }));
    expect(plain.res.statusCode, plain.res.body).toBe(200);
    expect(toIdentity(plain.subjects)).toEqual([]);
    // Estates itself asked nothing: one estates command, then only the gateway's settle round.
    expect(plain.subjects.filter((s) => !settles(plain.subjects).includes(s))).toEqual([EstatesSubjects.updateEstate]);

    const managed = await traced(() => stack.as(owner).patch(`/estates/${estateId}`, { managing_user_id: stack.bootstrap.user_id }));
    expect(managed.res.statusCode, managed.res.body).toBe(200);
    expect(toIdentity(managed.subjects)).toEqual([]);

    // An invitee who has not accepted is nobody's manager yet: refused from the local copy too.
    const pending = await traced(() => stack.as(owner).patch(`/estates/${estateId}`, { managing_user_id: invitee }));
    expect(pending.res.statusCode, pending.res.body).toBe(400);
    expect(toIdentity(pending.subjects)).toEqual([]);
  });

  it('GET /estates/{id}?as_of= and the lists make none either', async () => {
    for (const url of [`/estates/${estateId}?as_of=${encodeURIComponent(new Date().toISOString())}`, '/estates', '/v1/estate/list']) {
      const { res, subjects: seen } = await traced(() => stack.as(owner).get(url));
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(toIdentity(seen), url).toEqual([]);
    }
  });
});
