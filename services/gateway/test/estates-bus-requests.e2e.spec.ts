import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bus } from '@renopath/platform';
import { EstatesSubjects, IdentitySubjects } from '@renopath/contracts';
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
    email_address: 'manager@bus.example',
    first_name: 'Mia',
    last_name: 'Manager',
    member_type: 'EMPLOYEE',
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
/** Every bus request to identity, the gateway's read-your-writes settle round (`qry.identity.settle`) included. */
const toIdentity = (list: string[]) => list.filter((s) => s.split('.')[1] === 'identity');
const settles = (list: string[]) => list.filter((s) => s.endsWith('.settle'));
const settled = (list: string[]) => [...new Set(settles(list).map((s) => s.split('.')[1]))].sort();
/** The contexts this gateway runs with (RENOPATH_CONTEXTS), but identity: all of them consume estates events, directly or not. */
const allButIdentity = () => stack.running.config.contexts.filter((c) => c !== 'identity').sort();
const all = () => [...stack.running.config.contexts].sort();

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
    // Estates itself asked nothing: one estates command, then the gateway's settle round of estates and
    // those following its events; identity consumes no estate event, so it is not asked to settle.
    expect(plain.subjects.filter((s) => !settles(plain.subjects).includes(s))).toEqual([EstatesSubjects.updateEstate]);
    expect(settled(plain.subjects)).toEqual(allButIdentity());
    expect(allButIdentity()).toEqual(expect.arrayContaining(['estates', 'renovations']));

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

describe('a write settles only the contexts it can reach', () => {
  it('part writes ask identity nothing, not even to settle', async () => {
    const roof = {
      dimensions: { height_cm: 450 },
      estate_roof_type: 'INCLINED',
      surface_m2: 85,
      is_decking_present: true,
      insulation_type: 'NONE',
    };
    const added = await traced(() => stack.as(owner).post(`/estates/${estateId}/roofs`, roof));
    expect(added.res.statusCode, added.res.body).toBe(201);
    const roofId = JSON.parse(added.res.body).id;
    const edited = await traced(() => stack.as(owner).patch(`/estates/${estateId}/roofs/${roofId}`, { surface_m2: 90 }));
    expect(edited.res.statusCode, edited.res.body).toBe(200);
    const removed = await traced(() => stack.as(owner).delete(`/estates/${estateId}/roofs/${roofId}`));
    expect(removed.res.statusCode, removed.res.body).toBe(200);
    for (const { subjects: seen } of [added, edited, removed]) {
      expect(toIdentity(seen)).toEqual([]);
      expect(settled(seen)).toEqual(allButIdentity());
    }
  });

  it('adding an estate member is a write in identity too (it invites the person), so identity and its consumers settle', async () => {
    const added = await traced(() =>
      stack.as(owner).post(`/estates/${estateId}/members`, { email_address: 'buyer@bus.example', first_name: 'Bea', last_name: 'Buyer' }),
    );
    expect(added.res.statusCode, added.res.body).toBe(201);
    expect(toIdentity(added.subjects).filter((s) => !s.endsWith('.settle'))).toEqual([IdentitySubjects.attachClientMember]);
    expect(settled(added.subjects)).toEqual(all());
    // The invitee is a pending member of the estate with the answer.
    const members = await stack.as(owner).get(`/estates/${estateId}/members`);
    expect(members.json().map((m: { email_address: string; status: string }) => [m.email_address, m.status])).toContainEqual([
      'buyer@bus.example',
      'PENDING',
    ]);

    const removed = await traced(() => stack.as(owner).delete(`/estates/${estateId}/members/${JSON.parse(added.res.body).user_id}`));
    expect(removed.res.statusCode, removed.res.body).toBe(200);
    expect(toIdentity(removed.subjects)).toEqual([]);
    expect(settled(removed.subjects)).toEqual(allButIdentity());
  });

  it('a write to identity still settles the contexts consuming identity events', async () => {
    const user = await traced(() => stack.as(owner).patch(`/users/${stack.bootstrap.user_id}`, { first_name: 'Olivia' }));
    expect(user.res.statusCode, user.res.body).toBe(200);
    expect(settled(user.subjects)).toEqual(all());
    const organization = await traced(() =>
      stack.as(owner).patch(`/organizations/${stack.bootstrap.organization_id}`, { organization_name: 'Traced Homes' }),
    );
    expect(organization.res.statusCode, organization.res.body).toBe(200);
    expect(settled(organization.subjects)).toEqual(all());
  });
});
