import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDF } from './files.ts';
import { acceptInvitation } from './mail.ts';
import { startStack, type Stack } from './stack.ts';

/**
 * Issue 8, point 8: an invited buyer (CLIENT) reads their estate, not the people around it. Estate
 * members and /history show a CLIENT only themself among the members, no other buyer's address or
 * name, no staff API client id; nobody sees upload keys.
 */
let stack: Stack;
let owner: string;
let ownerAudit: string;
let estateId: string;
let ann: { user_id: string; token: string };
let ben: { user_id: string };

beforeAll(async () => {
  stack = await startStack();
  owner = await stack.token();
  ownerAudit = await stack.clientToken(stack.bootstrap.user_id, ['estates', 'audit']);
  estateId = (await stack.as(owner).post('/estates', { name: 'Shared by two buyers' })).json().id;
  await stack.as(owner).upload(`/estates/${estateId}/files`, [{ name: 'file', filename: 'plan.pdf', content: PDF }]);
  const annMember = (
    await stack
      .as(owner)
      .post(`/estates/${estateId}/members`, { email_address: 'ann@buyer.example', first_name: 'Ann', last_name: 'Buyer' })
  ).json();
  const benMember = (
    await stack
      .as(owner)
      .post(`/estates/${estateId}/members`, { email_address: 'ben@buyer.example', first_name: 'Ben', last_name: 'Bidder' })
  ).json();
  await acceptInvitation(stack, 'ann@buyer.example');
  await acceptInvitation(stack, 'ben@buyer.example');
  ann = { user_id: annMember.user_id, token: await stack.clientToken(annMember.user_id, ['estates', 'audit']) };
  ben = { user_id: benMember.user_id };
});
afterAll(async () => stack?.close());

describe('what a CLIENT sees of the people on their estate', () => {
  it('members: staff see every member; a buyer sees only themself, in the list and in the estate', async () => {
    const all = (await stack.as(owner).get(`/estates/${estateId}/members`)).json();
    expect(all.map((m: { user_id: string }) => m.user_id).sort()).toEqual([ann.user_id, ben.user_id].sort());
    const mine = await stack.as(ann.token).get(`/estates/${estateId}/members`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual([expect.objectContaining({ user_id: ann.user_id, email_address: 'ann@buyer.example', status: 'ACTIVE' })]);
    const estate = (await stack.as(ann.token).get(`/estates/${estateId}`)).json();
    expect(estate.members.map((m: { user_id: string }) => m.user_id)).toEqual([ann.user_id]);
    const past = (await stack.as(ann.token).get(`/estates/${estateId}?as_of=${encodeURIComponent(new Date().toISOString())}`)).json();
    expect(past.members.map((m: { user_id: string }) => m.user_id)).toEqual([ann.user_id]);
    for (const body of [mine.body, JSON.stringify(estate), JSON.stringify(past)]) {
      expect(body).not.toContain('ben@buyer.example');
      expect(body).not.toContain('Bidder');
    }
  });

  it("history: a buyer sees no other buyer's details and no staff client id; nobody sees upload keys", async () => {
    const res = await stack.as(ann.token).get(`/v1/estates/${estateId}/history`);
    expect(res.statusCode).toBe(200);
    const entries: Array<{ type: string; actor: { client_id: string | null }; data: Record<string, unknown> }> = res.json();
    expect(entries.map((e) => e.type)).toEqual(
      expect.arrayContaining(['EstateCreated', 'EstateFileAdded', 'EstateMemberAdded', 'EstateMemberActivated']),
    );
    expect(res.body).not.toContain('ben@buyer.example');
    expect(res.body).not.toContain('Bidder');
    expect(res.body).toContain('ann@buyer.example');
    expect(res.body).not.toContain('blob_key');
    expect(res.body).not.toContain('uploads/');
    expect(entries.filter((e) => e.actor.client_id !== null)).toEqual([]);

    const staff = await stack.as(ownerAudit).get(`/v1/estates/${estateId}/history`);
    expect(staff.body).toContain('ben@buyer.example');
    expect(staff.body).not.toContain('blob_key');
    expect(staff.body).not.toContain('uploads/');
    expect(staff.json().find((e: { type: string }) => e.type === 'EstateCreated').actor.client_id).toBe(stack.bootstrap.client_id);
  });

  it('a pending invitee reads nothing yet', async () => {
    const estate = (await stack.as(owner).post('/estates', { name: 'Not yet' })).json();
    await stack
      .as(owner)
      .post(`/estates/${estate.id}/members`, { email_address: 'ann@buyer.example', first_name: 'Ann', last_name: 'Buyer' });
    // Ann is an active CLIENT of the organization already: a new estate is shared with her at once.
    expect((await stack.as(ann.token).get(`/estates/${estate.id}`)).statusCode).toBe(200);
    const other = (await stack.as(owner).post('/estates', { name: 'Invitation pending' })).json();
    const cleo = (
      await stack
        .as(owner)
        .post(`/estates/${other.id}/members`, { email_address: 'cleo@buyer.example', first_name: 'Cleo', last_name: 'Client' })
    ).json();
    expect(cleo.status).toBe('PENDING');
    expect((await stack.admin('POST', '/admin/api-clients', { user_id: cleo.user_id })).statusCode).toBe(400);
  });
});
