import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptInvitation, codeIn, confirmEmailChange, lastMail, outbox } from './mail.ts';
import { startStack, type Stack } from './stack.ts';

/**
 * Attack suite, takeover paths (issue 8, holes 1 and 2): nobody gains an organization, an estate or
 * another person's data through an address they do not read, and roles come from the token's
 * organization only.
 */
let stack: Stack;
let agency: { token: string; organization: { id: string }; user: { id: string } };
let attacker: { token: string; organization: { id: string }; user: { id: string } };

beforeAll(async () => {
  stack = await startStack();
  agency = await stack.tenant('Honest agency', 'owner@honest.example');
  attacker = await stack.tenant('Mallory & Co', 'mallory@evil.example');
});
afterAll(async () => stack?.close());

const accept = (token: string) => stack.app.inject({ method: 'POST', url: '/v1/invitations/accept', payload: { token } });

describe('hole 1: an unproven address gains nothing', () => {
  it("PATCH /users/{self} to an unregistered address leaves it pending; an operator's new organization for that address is not the attacker's", async () => {
    const patched = await stack.as(attacker.token).patch(`/users/${attacker.user.id}`, { email_address: 'ceo@newco.example' });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ email_address: 'mallory@evil.example', pending_email_address: 'ceo@newco.example' });
    // The confirmation went to the address the attacker does not read.
    expect(codeIn(await lastMail(stack, 'ceo@newco.example'))).not.toBeNull();
    expect(await outbox(stack, 'mallory@evil.example')).toEqual([]);

    const created = await stack.admin('POST', '/admin/organizations', {
      name: 'NewCo',
      country: 'BE',
      owner: { email_address: 'ceo@newco.example', first_name: 'Cee', last_name: 'Eo' },
    });
    expect(created.statusCode).toBe(201);
    const newco = created.json();
    expect(newco.user.id).not.toBe(attacker.user.id);
    expect(newco.owner_status).toBe('ACTIVE');
    const ceo = await stack.token(newco.client_id, newco.client_secret);
    const estate = (await stack.as(ceo).post('/estates', { name: 'NewCo HQ' })).json();

    // The attacker's old token: nothing of NewCo.
    expect((await stack.as(attacker.token).get(`/estates/${estate.id}`)).statusCode).toBe(404);
    expect((await stack.as(attacker.token).patch(`/estates/${estate.id}`, { name: 'Pwned' })).statusCode).toBe(404);
    expect((await stack.as(attacker.token).get('/estates')).json().map((e: { id: string }) => e.id)).not.toContain(estate.id);
    expect((await stack.as(attacker.token).get('/organizations')).json().map((o: { id: string }) => o.id)).toEqual([
      attacker.organization.id,
    ]);
    expect((await stack.as(attacker.token).get(`/organizations/${newco.organization.id}/members`)).statusCode).toBe(404);
    expect(
      (await stack.as(attacker.token).patch(`/organizations/${newco.organization.id}`, { organization_name: 'Pwned' })).statusCode,
    ).toBe(404);

    // The pending change can no longer complete (the address is NewCo's owner's now), even with the real code.
    const late = await confirmEmailChange(stack, 'ceo@newco.example');
    expect(late.statusCode).toBe(400);
    expect((await stack.as(attacker.token).get('/users/me')).json()[0].email_address).toBe('mallory@evil.example');
    expect((await stack.as(ceo).get(`/estates/${estate.id}`)).json().name).toBe('NewCo HQ');
  });

  it('an estate invitation to an address the attacker set unproven invites someone else, who must accept', async () => {
    await stack.as(attacker.token).patch(`/users/${attacker.user.id}`, { email_address: 'buyer@target.example' });
    const estate = (await stack.as(agency.token).post('/estates', { name: 'For sale' })).json();
    const invited = await stack
      .as(agency.token)
      .post(`/estates/${estate.id}/members`, { email_address: 'buyer@target.example', first_name: 'Bu', last_name: 'Yer' });
    expect(invited.statusCode).toBe(201);
    expect(invited.json().user_id).not.toBe(attacker.user.id);
    expect(invited.json().status).toBe('PENDING');
    expect((await stack.as(attacker.token).get(`/estates/${estate.id}`)).statusCode).toBe(404);
    expect((await stack.as(attacker.token).get(`/estates/${estate.id}/members`)).statusCode).toBe(404);
  });

  it("an organization invitation to an attacker-set address: same, and the attacker's token holds no role there", async () => {
    await stack.as(attacker.token).patch(`/users/${attacker.user.id}`, { email_address: 'new-hire@honest.example' });
    const invited = await stack.as(agency.token).post(`/organizations/${agency.organization.id}/members`, {
      email_address: 'new-hire@honest.example',
      first_name: 'New',
      last_name: 'Hire',
      member_type: 'EMPLOYEE',
    });
    expect(invited.json()).toMatchObject({ status: 'PENDING', first_name: 'New' });
    expect(invited.json().user_id).not.toBe(attacker.user.id);
    const estate = (await stack.as(agency.token).post('/estates', { name: 'Staff only' })).json();
    expect((await stack.as(attacker.token).get(`/estates/${estate.id}`)).statusCode).toBe(404);
    expect((await stack.as(attacker.token).get(`/organizations/${agency.organization.id}/members`)).statusCode).toBe(404);
  });

  it('codes are single-use, exact and never a 500', async () => {
    const estate = (await stack.as(agency.token).post('/estates', { name: 'Once' })).json();
    await stack
      .as(agency.token)
      .post(`/estates/${estate.id}/members`, { email_address: 'once@buyer.example', first_name: 'On', last_name: 'Ce' });
    const token = codeIn(await lastMail(stack, 'once@buyer.example'))!;
    const tampered = `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    const wrong = await accept(tampered);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: ['the invitation code is not valid or has expired'] });
    expect((await accept(token)).statusCode).toBe(200);
    expect((await accept(token)).json()).toEqual(wrong.json());
    for (const junk of ['x'.repeat(30), `${estate.id}.${estate.id}.${'a'.repeat(43)}`, '../../etc/passwd-000000000000']) {
      const res = await accept(junk);
      expect(res.statusCode, junk).toBe(400);
    }
    expect((await stack.app.inject({ method: 'POST', url: '/v1/invitations/accept', payload: { token, extra: 1 } })).statusCode).toBe(400);
    const confirm = await stack.app.inject({ method: 'POST', url: '/v1/email-changes/confirm', payload: { token } });
    expect(confirm.statusCode).toBe(400);
  });
});

describe("roles come from the token's organization", () => {
  it("a user who belongs to two organizations acts in each only with that organization's token", async () => {
    // The agency's owner is invited into the attacker's organization as an employee, and accepts.
    const invited = await stack.as(attacker.token).post(`/organizations/${attacker.organization.id}/members`, {
      email_address: 'owner@honest.example',
      first_name: 'Dual',
      last_name: 'Role',
      member_type: 'EMPLOYEE',
    });
    expect(invited.json().status).toBe('PENDING');
    await acceptInvitation(stack, 'owner@honest.example');
    const honestEstate = (await stack.as(agency.token).post('/estates', { name: 'Honest listing' })).json();
    // A token of the same user in the attacker's organization.
    const clients = await stack.admin('POST', '/admin/api-clients', { user_id: agency.user.id, organization_id: attacker.organization.id });
    const dual = await stack.token(clients.json().client_id, clients.json().client_secret);
    expect((await stack.as(dual).get(`/estates/${honestEstate.id}`)).statusCode).toBe(404);
    expect((await stack.as(dual).get('/estates')).json().map((e: { id: string }) => e.id)).not.toContain(honestEstate.id);
    expect((await stack.as(dual).patch(`/organizations/${agency.organization.id}`, { organization_name: 'X' })).statusCode).toBe(404);
    expect((await stack.as(dual).get(`/organizations/${agency.organization.id}/members`)).statusCode).toBe(404);
    expect((await stack.as(dual).get('/organizations')).json().map((o: { id: string }) => o.id)).toEqual([attacker.organization.id]);
    // As an employee there, not an owner: the owner role elsewhere does not carry over.
    const addByDual = await stack.as(dual).post(`/organizations/${attacker.organization.id}/members`, {
      email_address: 'x@takeover.example',
      first_name: 'X',
      last_name: 'Y',
      member_type: 'OWNER',
    });
    expect(addByDual.statusCode).toBe(403);
    // And the attacker's owner, who now shares a member with the agency, still sees nothing of the agency.
    expect((await stack.as(attacker.token).get(`/estates/${honestEstate.id}`)).statusCode).toBe(404);
    expect((await stack.as(attacker.token).patch(`/users/${agency.user.id}`, { last_name: 'Pwned' })).statusCode).toBe(403);
  });
});

describe("hole 2: nobody is attached without consent, and no other tenant's data comes back", () => {
  it("inviting another organization's owner answers with the inviter's names, pending, exactly as for an unknown address", async () => {
    const victim = await stack.tenant('Victim agency', 'vera@victim.example');
    await stack.as(victim.token).patch(`/users/${victim.user.id}`, { first_name: 'Vera', last_name: 'Secret-Surname' });
    const estate = (await stack.as(attacker.token).post('/estates', { name: 'Bait' })).json();
    const known = await stack
      .as(attacker.token)
      .post(`/estates/${estate.id}/members`, { email_address: 'vera@victim.example', first_name: 'Any', last_name: 'Name' });
    const unknown = await stack
      .as(attacker.token)
      .post(`/estates/${estate.id}/members`, { email_address: 'nobody-yet@victim.example', first_name: 'Any', last_name: 'Name' });
    expect(known.statusCode).toBe(201);
    expect(unknown.statusCode).toBe(201);
    const shape = (m: Record<string, unknown>) => ({ ...m, id: 'x', user_id: 'x', created_at: 'x', email_address: 'x' });
    expect(shape(known.json())).toEqual(shape(unknown.json()));
    expect(known.json()).toMatchObject({ first_name: 'Any', last_name: 'Name', status: 'PENDING' });
    expect(JSON.stringify(known.json())).not.toContain('Secret-Surname');
    const orgMembers = JSON.stringify((await stack.as(attacker.token).get(`/organizations/${attacker.organization.id}/members`)).json());
    expect(orgMembers).not.toContain('Secret-Surname');

    // Vera is no CLIENT of the attacker's organization, and the attacker cannot touch her.
    const me = (await stack.as(victim.token).get('/users/me')).json()[0];
    expect(me.organizations).toEqual([{ organization_id: victim.organization.id, member_type: 'OWNER' }]);
    expect((await stack.as(attacker.token).patch(`/users/${victim.user.id}`, { last_name: 'X' })).statusCode).toBe(404);
    // Her later renames stay hers: the inviter keeps seeing what it typed.
    await stack.as(victim.token).patch(`/users/${victim.user.id}`, { last_name: 'Renamed-Privately' });
    expect(JSON.stringify((await stack.as(attacker.token).get(`/estates/${estate.id}/members`)).json())).not.toContain('Renamed-Privately');
  });

  it('PATCH /users/{self} answers the same for a registered and an unregistered address (no 409 oracle)', async () => {
    const taken = await stack.as(attacker.token).patch(`/users/${attacker.user.id}`, { email_address: 'Owner@Honest.example' });
    const free = await stack.as(attacker.token).patch(`/users/${attacker.user.id}`, { email_address: 'free-address@nowhere.example' });
    expect(taken.statusCode).toBe(200);
    expect(free.statusCode).toBe(200);
    const shape = (u: Record<string, unknown>) => ({ ...u, pending_email_address: 'x', updated_at: 'x' });
    expect(shape(taken.json())).toEqual(shape(free.json()));
    expect(taken.json().pending_email_address).toBe('owner@honest.example');
    // The address's owner gets a neutral note without a code; the free address gets a code.
    const note = await lastMail(stack, 'owner@honest.example');
    expect(note?.text).toContain('already belongs to a Renopath account');
    expect(codeIn(note)).toBeNull();
    expect(codeIn(await lastMail(stack, 'free-address@nowhere.example'))).not.toBeNull();
  });

  it("an operator's new organization for an address with an account waits for that account to accept", async () => {
    const res = await stack.admin('POST', '/admin/organizations', {
      name: 'Second shop',
      country: 'NL',
      owner: { email_address: 'vera@victim.example', first_name: 'Given', last_name: 'ByOperator' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.owner_status).toBe('PENDING');
    expect(body.user).toMatchObject({
      email_address: 'vera@victim.example',
      first_name: 'Given',
      last_name: 'ByOperator',
      organizations: [],
    });
    expect(JSON.stringify(body)).not.toContain('Renamed-Privately');
    // The owner's client works only once the owner accepts.
    const early = await stack.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      payload: { client_id: body.client_id, client_secret: body.client_secret },
    });
    expect(early.statusCode).toBe(400);
    expect(await acceptInvitation(stack, 'vera@victim.example')).toMatchObject({
      organization_id: body.organization.id,
      member_type: 'OWNER',
      status: 'ACTIVE',
    });
    const owner = await stack.token(body.client_id, body.client_secret);
    expect((await stack.as(owner).get('/organizations')).json().map((o: { id: string }) => o.id)).toEqual([body.organization.id]);
  });
});
