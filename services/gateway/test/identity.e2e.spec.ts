import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptInvitation } from './mail.ts';
import { embeddedOnly, STACK_MODE, startStack, type Stack } from './stack.ts';

let stack: Stack;
let owner: string;

beforeAll(async () => {
  stack = await startStack();
  owner = await stack.token();
});
afterAll(async () => stack?.close());

describe('token endpoint (docs/http-contract.md "Authentication, roles and rate limits")', () => {
  it('accepts credentials in headers and answers a Bearer token', async () => {
    const res = await stack.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'x-service-client-id': stack.bootstrap.client_id, 'x-service-client-secret': stack.bootstrap.client_secret },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ access_token: expect.any(String), expires_in: 3600, token_type: 'Bearer' });
    const [header, payload] = body.access_token
      .split('.')
      .slice(0, 2)
      .map((p: string) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header).toMatchObject({ alg: 'EdDSA', kid: expect.any(String) });
    expect(payload).toMatchObject({
      sub: stack.bootstrap.user_id,
      org: stack.bootstrap.organization_id,
      client_id: stack.bootstrap.client_id,
      iss: 'renopath',
      aud: 'renopath-api',
    });
    expect(payload.exp - payload.iat).toBe(3600);
    expect(payload.scope.split(' ').sort()).toEqual(['calculations', 'estates', 'organization', 'passports', 'renovations', 'reports']);
    expect(typeof payload.jti).toBe('string');
  });

  it('accepts a JSON body', async () => {
    const res = await stack.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      payload: { client_id: stack.bootstrap.client_id, client_secret: stack.bootstrap.client_secret },
    });
    expect(res.statusCode).toBe(200);
  });

  it('accepts the RFC 6749 form with HTTP Basic and with body credentials', async () => {
    const basic = Buffer.from(`${stack.bootstrap.client_id}:${stack.bootstrap.client_secret}`).toString('base64');
    const withBasic = await stack.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    });
    expect(withBasic.statusCode).toBe(200);
    const withBody = await stack.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=client_credentials&client_id=${stack.bootstrap.client_id}&client_secret=${stack.bootstrap.client_secret}`,
    });
    expect(withBody.statusCode).toBe(200);
  });

  it('answers 400, not 500, for HTTP Basic credentials with a broken percent-escape', async () => {
    const res = await stack.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: {
        authorization: `Basic ${Buffer.from('%E0%A4%A:x').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'grant_type=client_credentials',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: [expect.any(String)] });
  });

  it('answers 400 for a wrong secret, an unknown client and a wrong grant type', async () => {
    const wrong = await stack.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'x-service-client-id': stack.bootstrap.client_id, 'x-service-client-secret': 'f'.repeat(64) },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: ['client_id or client_secret is not valid'] });
    const unknown = await stack.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      payload: { client_id: '00000000-0000-4000-8000-000000000000', client_secret: 'x' },
    });
    expect(unknown.statusCode).toBe(400);
    const grant = await stack.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=password&client_id=${stack.bootstrap.client_id}&client_secret=${stack.bootstrap.client_secret}`,
    });
    expect(grant.statusCode).toBe(400);
    expect(grant.json().message[0]).toMatch(/grant_type/);
    const missing = await stack.app.inject({ method: 'POST', url: '/v1/oauth/token', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toEqual(['client_id is required', 'client_secret is required']);
  });

  it('publishes the signing keys as a JWKS', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    expect(res.statusCode).toBe(200);
    const { keys } = res.json();
    expect(keys.length).toBeGreaterThan(0);
    expect(keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', kid: expect.any(String) });
    expect(keys[0].d).toBeUndefined();
  });
});

describe('users', () => {
  it('GET /users/me returns an array holding the token user, bare and under /v1', async () => {
    for (const url of ['/users/me', '/v1/users/me']) {
      const res = await stack.as(owner).get(url);
      expect(res.statusCode).toBe(200);
      const users = res.json();
      expect(users).toHaveLength(1);
      // The interface "User": id, email_address, first_name, last_name (the rest are extensions).
      expect(Object.keys(users[0])).toEqual(expect.arrayContaining(['id', 'email_address', 'first_name', 'last_name']));
      expect(users[0]).toMatchObject({
        id: stack.bootstrap.user_id,
        email_address: stack.bootstrap.email_address,
        organizations: [{ organization_id: stack.bootstrap.organization_id, member_type: 'OWNER' }],
        external_id: null,
      });
    }
  });

  it('PATCH /users/{id} edits oneself and is readable by the next request', async () => {
    const res = await stack
      .as(owner)
      .patch(`/users/${stack.bootstrap.user_id}`, { first_name: 'Dana', last_name: 'Demo', external_id: 'crm-1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: stack.bootstrap.user_id,
      email_address: stack.bootstrap.email_address,
      first_name: 'Dana',
      last_name: 'Demo',
      external_id: 'crm-1',
    });
    const me = await stack.as(owner).get('/users/me');
    expect(me.json()[0]).toMatchObject({ first_name: 'Dana', last_name: 'Demo', external_id: 'crm-1' });
  });

  it('PATCH /users/{id} rejects unknown and non-editable fields, and bad values', async () => {
    const res = await stack.as(owner).patch(`/users/${stack.bootstrap.user_id}`, { id: 'x', organizations: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: ['id is not an allowed field', 'organizations is not an allowed field'],
    });
    const bad = await stack.as(owner).patch(`/users/${stack.bootstrap.user_id}`, { email_address: 'not-an-email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toEqual(['email_address must be an email address']);
    const empty = await stack.as(owner).patch(`/users/${stack.bootstrap.user_id}`, {});
    expect(empty.statusCode).toBe(400);
  });

  it('PATCH /users/{id}: an owner edits a member; a member edits only themself (403); other tenants 404', async () => {
    const added = await stack.as(owner).post(`/organizations/${stack.bootstrap.organization_id}/members`, {
      email_address: 'emma@agency.example',
      first_name: 'Emma',
      last_name: 'Employee',
      member_type: 'EMPLOYEE',
    });
    expect(added.statusCode).toBe(201);
    const emmaId = added.json().id;
    // Invited, not yet a member: nobody may edit her through the organization.
    expect((await stack.as(owner).patch(`/users/${emmaId}`, { last_name: 'Peeters' })).statusCode).toBe(404);
    await acceptInvitation(stack, 'emma@agency.example');
    const byOwner = await stack.as(owner).patch(`/users/${emmaId}`, { last_name: 'Peeters' });
    expect(byOwner.statusCode).toBe(200);

    const client = await stack.admin('POST', '/admin/api-clients', { user_id: emmaId });
    expect(client.statusCode).toBe(201);
    const emma = await stack.token(client.json().client_id, client.json().client_secret);
    const byMember = await stack.as(emma).patch(`/users/${stack.bootstrap.user_id}`, { last_name: 'Hacked' });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json()).toEqual({ statusCode: 403, error: 'Forbidden' });

    const other = await stack.tenant('Other agency', 'olga@identity-other.example');
    const crossTenant = await stack.as(other.token).patch(`/users/${emmaId}`, { last_name: 'X' });
    expect(crossTenant.statusCode).toBe(404);
    const unknown = await stack.as(owner).patch('/users/00000000-0000-4000-8000-000000000000', { last_name: 'X' });
    expect(unknown.statusCode).toBe(404);
    const notUuid = await stack.as(owner).patch('/users/abc', { last_name: 'X' });
    expect(notUuid.statusCode).toBe(404);
  });

  it("PATCH /users/{id}: an owner who invited another tenant's user may not rewrite that user, before (404) or after they accept (403)", async () => {
    const other = await stack.tenant('Victim agency', 'victor@victim.example');
    const added = await stack.as(owner).post(`/organizations/${stack.bootstrap.organization_id}/members`, {
      email_address: 'victor@victim.example',
      first_name: 'V',
      last_name: 'V',
      member_type: 'EMPLOYEE',
    });
    expect(added.statusCode).toBe(201);
    expect((await stack.as(owner).patch(`/users/${added.json().id}`, { last_name: 'Renamed' })).statusCode).toBe(404);
    await acceptInvitation(stack, 'victor@victim.example');
    const hijack = await stack.as(owner).patch(`/users/${added.json().id}`, { email_address: 'attacker@evil.example' });
    expect(hijack.statusCode).toBe(403);
    expect(hijack.json()).toEqual({ statusCode: 403, error: 'Forbidden' });
    const me = await stack.as(other.token).get('/users/me');
    expect(me.json()[0].email_address).toBe('victor@victim.example');
  });
});

describe('organizations', () => {
  it("GET /organizations lists only the caller's organizations, each with every documented field", async () => {
    const other = await stack.tenant('Agency Two', 'two@agency.example');
    const mine = await stack.as(owner).get('/organizations');
    expect(mine.statusCode).toBe(200);
    expect(mine.json().map((o: { id: string }) => o.id)).toEqual([stack.bootstrap.organization_id]);
    const theirs = await stack.as(other.token).get('/v1/organizations');
    expect(theirs.json()).toEqual([
      {
        id: other.organization.id,
        phone_number: null,
        email_address: null,
        organization_name: 'Agency Two',
        country: 'NL',
        region: 'NETHERLANDS',
        street: null,
        house_number: null,
        house_number_extra: null,
        zipcode: null,
        place: null,
        vat_number: null,
        external_id: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    expect(theirs.json()[0]).not.toHaveProperty('name');
  });

  it('PATCH /organizations/{id} takes every field of the interface and reads them back, region derived', async () => {
    const org = stack.bootstrap.organization_id;
    const body = {
      phone_number: '+32 9 123 45 67',
      email_address: 'info@immo-demo.example',
      organization_name: 'Immo Demo',
      country: 'BE',
      street: 'Veldstraat',
      house_number: '12',
      house_number_extra: 'bus 3',
      zipcode: '9000',
      place: 'Gent',
    };
    const res = await stack.as(owner).patch(`/organizations/${org}`, body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: org, ...body, region: 'FLANDERS' });
    const listed = (await stack.as(owner).get('/organizations')).json()[0];
    expect(listed).toMatchObject({ id: org, ...body, region: 'FLANDERS' });

    // A zipcode in another region moves the organization there; clearing it leaves the region unknown.
    const brussels = await stack.as(owner).patch(`/v1/organizations/${org}`, { zipcode: '1050', place: 'Elsene' });
    expect(brussels.json()).toMatchObject({ zipcode: '1050', region: 'BRUSSELS', street: 'Veldstraat' });
    const cleared = await stack.as(owner).patch(`/organizations/${org}`, { zipcode: null, house_number_extra: null });
    expect(cleared.json()).toMatchObject({ zipcode: null, region: null, house_number_extra: null, house_number: '12' });
    const extensions = await stack.as(owner).patch(`/organizations/${org}`, { vat_number: 'BE0123456789', external_id: 'crm-org-1' });
    expect(extensions.json()).toMatchObject({ vat_number: 'BE0123456789', external_id: 'crm-org-1', organization_name: 'Immo Demo' });
  });

  it('PATCH /organizations/{id}: region is read-only; bad email, phone and zipcode are 400 naming the field', async () => {
    const org = stack.bootstrap.organization_id;
    const region = await stack.as(owner).patch(`/organizations/${org}`, { organization_name: 'X', region: 'WALLONIA' });
    expect(region.statusCode).toBe(400);
    expect(region.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: ['region is not editable: it follows from zipcode and country'],
    });

    const bad = await stack.as(owner).patch(`/organizations/${org}`, { email_address: 'nope', phone_number: 'call me', country: 'FR' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toEqual([
      'phone_number must be a phone number: 8 to 15 digits, with an optional leading + and spaces',
      'email_address must be an email address',
      'country must be one of "BE", "NL"',
    ]);
    expect((await stack.as(owner).patch(`/organizations/${org}`, { phone_number: '+32 12' })).statusCode).toBe(400);

    const be = await stack.as(owner).patch(`/organizations/${org}`, { country: 'BE', zipcode: '1234 AB' });
    expect(be.statusCode).toBe(400);
    expect(be.json().message).toEqual(['zipcode must be a Belgian postal code (4 digits, 1000-9999)']);
    await stack.as(owner).patch(`/organizations/${org}`, { country: 'BE', zipcode: '2000' });
    // The zipcode kept (2000) is not Dutch: the country cannot change alone.
    const nl = await stack.as(owner).patch(`/organizations/${org}`, { country: 'NL' });
    expect(nl.statusCode).toBe(400);
    expect(nl.json().message).toEqual(['zipcode must be a Dutch postal code (4 digits and 2 letters, like 1234 AB)']);
    const both = await stack.as(owner).patch(`/organizations/${org}`, { country: 'NL', zipcode: '1012 AB' });
    expect(both.json()).toMatchObject({ country: 'NL', zipcode: '1012 AB', region: 'NETHERLANDS' });

    const unknownField = await stack.as(owner).patch(`/organizations/${org}`, { owner_id: 'x', name: 'Old name' });
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().message).toEqual(['owner_id is not an allowed field', 'name is not an allowed field']);
  });

  it('PATCH /organizations/{id}: employee 403; other tenant 404', async () => {
    const added = await stack.as(owner).post(`/organizations/${stack.bootstrap.organization_id}/members`, {
      email_address: 'eric@agency.example',
      first_name: 'Eric',
      last_name: 'Employee',
      member_type: 'EMPLOYEE',
    });
    await acceptInvitation(stack, 'eric@agency.example');
    const client = await stack.admin('POST', '/admin/api-clients', { user_id: added.json().id });
    const employee = await stack.token(client.json().client_id, client.json().client_secret);
    const byEmployee = await stack
      .as(employee)
      .patch(`/organizations/${stack.bootstrap.organization_id}`, { organization_name: 'Mine now' });
    expect(byEmployee.statusCode).toBe(403);
    expect(byEmployee.json()).toEqual({ statusCode: 403, error: 'Forbidden' });

    const other = await stack.tenant('Agency Three', 'three@agency.example');
    const cross = await stack.as(other.token).patch(`/organizations/${stack.bootstrap.organization_id}`, { organization_name: 'Stolen' });
    expect(cross.statusCode).toBe(404);
    expect(cross.json()).toEqual({ statusCode: 404, error: 'Not Found', message: ['organization not found'] });
    const name = (await stack.as(owner).get('/organizations')).json()[0].organization_name;
    expect(name).not.toBe('Mine now');
    expect(name).not.toBe('Stolen');
  });

  it('members: list, add (owner only), remove (keeps the last owner), tenant isolation', async () => {
    const org = stack.bootstrap.organization_id;
    const add = await stack.as(owner).post(`/organizations/${org}/members`, {
      email_address: 'carla@identity-buyer.example',
      first_name: 'Carla',
      last_name: 'Client',
      member_type: 'CLIENT',
    });
    expect(add.statusCode).toBe(201);
    const carlaId = add.json().id;
    expect(add.json()).toEqual({
      id: carlaId,
      email_address: 'carla@identity-buyer.example',
      first_name: 'Carla',
      last_name: 'Client',
      member_type: 'CLIENT',
      user_id: carlaId,
      organization_id: org,
      status: 'PENDING',
      created_at: expect.any(String),
    });

    const list = await stack.as(owner).get(`/organizations/${org}/members`);
    expect(list.statusCode).toBe(200);
    expect(list.json().find((m: { id: string }) => m.id === carlaId)).toEqual(add.json());
    // A pending member holds nothing: no API client can act for her in the organization.
    expect((await stack.admin('POST', '/admin/api-clients', { user_id: carlaId })).statusCode).toBe(400);
    await acceptInvitation(stack, 'carla@identity-buyer.example');
    expect((await stack.as(owner).get(`/organizations/${org}/members`)).json().find((m: { id: string }) => m.id === carlaId)).toEqual({
      ...add.json(),
      status: 'ACTIVE',
    });
    expect(list.json().find((m: { id: string }) => m.id === stack.bootstrap.user_id)).toMatchObject({
      member_type: 'OWNER',
      email_address: stack.bootstrap.email_address,
    });

    const carlaClient = await stack.admin('POST', '/admin/api-clients', { user_id: carlaId });
    const carla = await stack.token(carlaClient.json().client_id, carlaClient.json().client_secret);
    const byClient = await stack.as(carla).post(`/organizations/${org}/members`, {
      email_address: 'x@identity-y.example',
      first_name: 'X',
      last_name: 'Y',
      member_type: 'OWNER',
    });
    expect(byClient.statusCode).toBe(403);
    const removeByClient = await stack.as(carla).delete(`/organizations/${org}/members/${stack.bootstrap.user_id}`);
    expect(removeByClient.statusCode).toBe(403);

    const invalid = await stack.as(owner).post(`/organizations/${org}/members`, { email_address: 'z@z.example', member_type: 'BOSS' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toEqual(
      expect.arrayContaining(['first_name is required', 'member_type must be one of "OWNER", "EMPLOYEE", "CLIENT"']),
    );

    const lastOwner = await stack.as(owner).delete(`/organizations/${org}/members/${stack.bootstrap.user_id}`);
    expect(lastOwner.statusCode).toBe(409);

    const other = await stack.tenant('Agency Four', 'four@agency.example');
    expect((await stack.as(other.token).get(`/organizations/${org}/members`)).statusCode).toBe(404);
    expect((await stack.as(other.token).delete(`/organizations/${org}/members/${carlaId}`)).statusCode).toBe(404);

    expect((await stack.as(owner).delete(`/organizations/${org}/members/not-a-uuid`)).json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: ['member not found'],
    });

    const removed = await stack.as(owner).delete(`/v1/organizations/${org}/members/${carlaId}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ id: carlaId, member_type: 'CLIENT', status: 'ACTIVE' });
    const after = await stack.as(owner).get(`/organizations/${org}/members`);
    expect(after.json().map((m: { id: string }) => m.id)).not.toContain(carlaId);
    // A removed member's client can no longer obtain tokens for the organization.
    const again = await stack.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'x-service-client-id': carlaClient.json().client_id, 'x-service-client-secret': carlaClient.json().client_secret },
    });
    expect(again.statusCode).toBe(400);
    expect((await stack.as(owner).delete(`/organizations/${org}/members/${carlaId}`)).statusCode).toBe(404);

    if (!embeddedOnly('stack.running.identity.storage (the event store)')) {
      const events = await stack.running.identity.storage.eventStore.readStream(`organization-${org}`);
      expect(events.map((e) => e.type)).toContain('OrganizationMemberRemoved');
    }
  });

  it('the OpenAPI document names the member path parameter member_id', async () => {
    const doc = (await stack.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/organizations/{organization_id}/members/{member_id}']?.delete;
    expect(op?.parameters?.map((p: { name: string }) => p.name)).toEqual(['organization_id', 'member_id']);
    expect(doc.paths['/organizations/{organization_id}/members/{user_id}']).toBeUndefined();
  });
});

describe('operator admin API', () => {
  it('creates an organization with its owner and API client; secrets only in the answer', async () => {
    const res = await stack.admin('POST', '/admin/organizations', {
      name: 'Makelaardij Noord',
      country: 'NL',
      owner: { email_address: 'noord@makelaar.example', first_name: 'Noor', last_name: 'Dijk' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.client_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(body.client_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.webhook_secret).toMatch(/^whsec_/);
    expect(body.organization).toMatchObject({
      organization_name: 'Makelaardij Noord',
      country: 'NL',
      region: 'NETHERLANDS',
      zipcode: null,
    });
    expect(body.organization).not.toHaveProperty('name');
    expect(body.user).toMatchObject({
      email_address: 'noord@makelaar.example',
      organizations: [{ organization_id: body.organization.id, member_type: 'OWNER' }],
    });
    expect(body.owner_status).toBe('ACTIVE');
    if (!embeddedOnly('stack.running.identity.storage (the event store)')) {
      const stored = JSON.stringify(await stack.running.identity.storage.eventStore.readAll(), (_k, v) =>
        typeof v === 'bigint' ? String(v) : v,
      );
      expect(stored).not.toContain(body.client_secret);
    }
  });

  it("also takes the organization's interface fields (extension), and checks the zipcode before creating anyone", async () => {
    const person = { email_address: 'zuid@makelaar.example', first_name: 'Zoë', last_name: 'Zuid' };
    const address = {
      phone_number: '+32 3 555 12 34',
      email_address: 'info@zuid.example',
      street: 'Meir',
      house_number: '1',
      house_number_extra: null,
      zipcode: '2000',
      place: 'Antwerpen',
    };
    const badZip = await stack.admin('POST', '/admin/organizations', {
      organization_name: 'Zuid',
      country: 'BE',
      ...address,
      zipcode: '200',
      owner: person,
    });
    expect(badZip.statusCode).toBe(400);
    expect(badZip.json().message).toEqual(['zipcode must be a Belgian postal code (4 digits, 1000-9999)']);
    if (!embeddedOnly('stack.running.identity.storage (the event store)')) {
      const stored = await stack.running.identity.storage.eventStore.readAll();
      expect(JSON.stringify(stored, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('zuid@makelaar.example');
    }

    const res = await stack.admin('POST', '/admin/organizations', { organization_name: 'Zuid', country: 'BE', ...address, owner: person });
    expect(res.statusCode).toBe(201);
    expect(res.json().organization).toMatchObject({ organization_name: 'Zuid', country: 'BE', region: 'FLANDERS', ...address });

    const neither = await stack.admin('POST', '/admin/organizations', { country: 'BE', owner: person });
    expect(neither.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: ['name is required'] });
    const differ = await stack.admin('POST', '/admin/organizations', { name: 'A', organization_name: 'B', country: 'BE', owner: person });
    expect(differ.json().message).toEqual(['organization_name must equal name when both are given']);
    const region = await stack.admin('POST', '/admin/organizations', { name: 'A', country: 'BE', region: 'FLANDERS', owner: person });
    expect(region.json().message).toEqual(['region is not editable: it follows from zipcode and country']);
  });

  it('creates a client with chosen scopes; a missing scope answers 403', async () => {
    const res = await stack.admin('POST', '/admin/api-clients', { user_id: stack.bootstrap.user_id, scopes: ['estates', 'audit'] });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      user_id: stack.bootstrap.user_id,
      organization_id: stack.bootstrap.organization_id,
      scopes: ['estates', 'audit'],
    });
    const limited = await stack.token(res.json().client_id, res.json().client_secret);
    expect((await stack.as(limited).get('/organizations')).statusCode).toBe(403);
    expect((await stack.as(limited).get('/users/me')).statusCode).toBe(200);
    const repeated = await stack.admin('POST', '/admin/api-clients', { user_id: stack.bootstrap.user_id, scopes: ['audit', 'audit'] });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: ['scopes must not repeat a value'] });
  });

  it("revocation stops the client's tokens at once", async () => {
    const res = await stack.admin('POST', '/admin/api-clients', { user_id: stack.bootstrap.user_id });
    const { client_id, client_secret } = res.json();
    const t = await stack.token(client_id, client_secret);
    expect((await stack.as(t).get('/users/me')).statusCode).toBe(200);
    const revoked = await stack.admin('DELETE', `/admin/api-clients/${client_id}`);
    expect(revoked.statusCode).toBe(200);
    expect((await stack.as(t).get('/users/me')).statusCode).toBe(401);
    const token = await stack.app.inject({ method: 'POST', url: '/v1/oauth/token', payload: { client_id, client_secret } });
    expect(token.statusCode).toBe(400);
    expect((await stack.admin('DELETE', '/admin/api-clients/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('rejects a wrong admin token (401), bad bodies (400) and unknown users (404)', async () => {
    const wrong = await stack.app.inject({
      method: 'POST',
      url: '/admin/api-clients',
      headers: { authorization: 'Bearer nope' },
      payload: { user_id: stack.bootstrap.user_id },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ statusCode: 401, error: 'Unauthorized' });
    const withUserToken = await stack.as(owner).post('/admin/api-clients', { user_id: stack.bootstrap.user_id });
    expect(withUserToken.statusCode).toBe(401);
    const bad = await stack.admin('POST', '/admin/organizations', { name: 'X', country: 'DE', owner: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toEqual(expect.arrayContaining(['country must be one of "BE", "NL"', 'owner.email_address is required']));
    const scopes = await stack.admin('POST', '/admin/api-clients', { user_id: stack.bootstrap.user_id, scopes: ['root'] });
    expect(scopes.statusCode).toBe(400);
    const unknown = await stack.admin('POST', '/admin/api-clients', { user_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('admin API off', () => {
  // A stack of its own with that setting: embedded only, since distributed it would be a second stack beside the
  // project's shared one (over PostgreSQL, past the server's connection limit), and the gateway's admin routes
  // are the same code in every mode.
  it.skipIf(embeddedOnly('a stack of its own, without the admin token'))(
    'is absent when RENOPATH_ADMIN_TOKEN is unset',
    async () => {
      const off = await startStack({ RENOPATH_ADMIN_TOKEN: '' });
      try {
        const res = await off.app.inject({
          method: 'POST',
          url: '/admin/organizations',
          headers: { authorization: 'Bearer anything' },
          payload: {},
        });
        expect(res.statusCode).toBe(404);
      } finally {
        await off.close();
      }
      // A second stack starts inside the test: as long as a stack's start in a hook.
    },
    180_000,
  );
});

describe.skipIf(embeddedOnly('stack.running.bus'))('internal: attach a client member (used by the estates context)', () => {
  it("invites a new address as a pending CLIENT, keeps an existing member's role, and names one user per address", async () => {
    const org = stack.bootstrap.organization_id;
    const req = (email: string) => ({
      actor: null,
      correlation_id: 'test',
      params: {},
      query: {},
      body: { organization_id: org, email_address: email, first_name: 'Bea', last_name: 'Buyer' },
    });
    const first = await stack.running.bus.request<{ member_type: string; user_id: string; status: string }>(
      'cmd.identity.attach-client-member',
      req('bea@identity-buyer.example'),
    );
    expect(first).toMatchObject({ member_type: 'CLIENT', status: 'PENDING' });
    const again = await stack.running.bus.request<{ user_id: string }>(
      'cmd.identity.attach-client-member',
      req('BEA@identity-buyer.example'),
    );
    expect(again.user_id).toBe(first.user_id);
    const ownerStays = await stack.running.bus.request<{ member_type: string; status: string }>(
      'cmd.identity.attach-client-member',
      req(stack.bootstrap.email_address),
    );
    expect(ownerStays).toMatchObject({ member_type: 'OWNER', status: 'ACTIVE' });
    await expect(
      stack.running.bus.request('cmd.identity.attach-client-member', {
        ...req('x@identity-y.example'),
        body: { ...req('x@identity-y.example').body, organization_id: '00000000-0000-4000-8000-000000000000' },
      }),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe('identity replicas (nats-postgres runs two: RENOPATH_E2E_REPLICAS)', () => {
  // The project's shared stack belongs to its global set-up, where a file cannot stop a process: over
  // PostgreSQL this describe starts a stack of its own, of identity and the gateway only.
  let own: Stack | null = null;
  beforeAll(async () => {
    if (STACK_MODE === 'nats-postgres')
      own = await startStack(
        {},
        { own: true, distributed: { order: ['identity', 'gateway'], serviceEnv: { gateway: { RENOPATH_CONTEXTS: 'identity' } } } },
      );
  }, 300_000);
  afterAll(async () => own?.close());
  const replicas = () => own ?? stack;
  const running = () =>
    replicas()
      .distributed?.processes()
      .filter((p) => p.service === 'identity' && p.child.exitCode === null && p.child.signalCode === null) ?? [];
  const issue = async () => {
    const res = await replicas().app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'x-service-client-id': replicas().bootstrap.client_id, 'x-service-client-secret': replicas().bootstrap.client_secret },
    });
    expect(res.statusCode).toBe(200);
    return res.json().access_token as string;
  };

  it('accepts through one replica a token the other signed: the key ring is in their shared store', async (ctx) => {
    const distributed = replicas().distributed;
    if (!distributed || running().length < 2) {
      console.warn('[skip] identity replicas: the stack runs one identity process');
      ctx.skip();
      return;
    }
    try {
      // Only replica 0 answers while 1 is down: it signs.
      await distributed.kill('identity', 1, 'SIGTERM');
      const signedBy0 = await issue();
      // Then only replica 1, started after that token on a data dir without the key file (a fresh pod's
      // volume): what it knows of replica 0's key it read from their store.
      rmSync(join(replicas().contextDir('identity'), 'signing-keys.json'), { force: true });
      await distributed.start('identity', 1);
      await distributed.kill('identity', 0, 'SIGTERM');
      const jwks = await replicas().app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
      expect(jwks.statusCode).toBe(200);
      const verified = await jwtVerify(signedBy0, createLocalJWKSet(jwks.json() as JSONWebKeySet), {
        issuer: 'renopath',
        audience: 'renopath-api',
      });
      expect(verified.payload.sub).toBe(replicas().bootstrap.user_id);
      // Replica 1 signs with the same current key, and every gateway takes both tokens.
      const signedBy1 = await issue();
      expect(decodeProtectedHeader(signedBy1).kid).toBe(decodeProtectedHeader(signedBy0).kid);
      for (let i = 0; i < 2 * distributed.gateways.length; i++) {
        for (const token of [signedBy0, signedBy1]) {
          const me = await replicas().app.inject({ method: 'GET', url: '/v1/users/me', headers: { authorization: `Bearer ${token}` } });
          expect(me.statusCode).toBe(200);
        }
      }
    } finally {
      for (const replica of [0, 1]) {
        const process = distributed.processes().find((p) => p.service === 'identity' && p.replica === replica);
        if (process && process.child.exitCode === null && process.child.signalCode === null) continue;
        await distributed.start('identity', replica);
      }
    }
  }, 180_000);
});
