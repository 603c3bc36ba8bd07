import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bus } from '@renopath/platform';
import { EstatesSubjects as S, type Estate, type EstateMember, type ServiceRequest } from '@renopath/contracts';
import { DIRECTORY_CONSUMER } from '../directory/directory.reactor.ts';
import { estateStream } from '../estate/estate.decider.ts';
import { startEstatesInMemory } from '../testing/in-memory.ts';
import { ESTATE_INVITATION_CONSUMER } from './estate-invitation.process.ts';

const ORG = '22222222-2222-4222-8222-222222222222';
const OWNER = 'abcdef01-2345-4678-89ab-cdef01234567';
const INVITEE = '33333333-3333-4333-8333-333333333333';
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function identityEvent(bus: Bus, consumer: string, type: string, data: Record<string, unknown>, event_id = randomUUID()) {
  await bus.publish(`evt.identity.${type}`, {
    context: 'identity',
    event_id,
    type,
    stream: `organization-${ORG}`,
    revision: 0,
    position: 1,
    occurred_at: new Date().toISOString(),
    data,
    metadata: { actor: { user_id: null, client_id: null }, correlation_id: randomUUID(), causation_id: null },
  });
  await vi.waitFor(async () => expect(await bus.isCaughtUp(consumer)).toBe(true), { timeout: 5000, interval: 10 });
}

describe('estate invitation process manager', () => {
  it('records the invitee identity stored for the estate, once, and never brings back a removed member', async () => {
    const { bus, eventStore } = await startEstatesInMemory(closers);
    await identityEvent(bus, DIRECTORY_CONSUMER, 'OrganizationMemberAdded', { organization_id: ORG, user_id: OWNER, member_type: 'OWNER' });
    const request = (body: unknown, params: Record<string, string> = {}): ServiceRequest => ({
      actor: { user_id: OWNER, organization_id: ORG, client_id: 'c', scopes: [] },
      correlation_id: randomUUID(),
      params,
      query: {},
      body,
    });
    const estate = await bus.request<Estate>(S.createEstate, request({ name: 'Invited' }));

    // As if estates died after identity's answer to `addMember`: only identity's event says it.
    const invitation = {
      organization_id: ORG,
      user_id: INVITEE,
      member_type: 'CLIENT',
      invitation_id: randomUUID(),
      email_address: 'buyer@x.example',
      first_name: 'Bea',
      last_name: 'Buyer',
      estate_id: estate.id,
      token_hash: 'h',
      expires_at: '2030-01-01T00:00:00.000Z',
    };
    const invitedId = randomUUID();
    await identityEvent(bus, ESTATE_INVITATION_CONSUMER, 'OrganizationMemberInvited', invitation, invitedId);
    const members = await bus.request<EstateMember[]>(S.listMembers, request({}, { estate_id: estate.id }));
    expect(members).toEqual([expect.objectContaining({ user_id: INVITEE, email_address: 'buyer@x.example', status: 'PENDING' })]);

    // A redelivery (another event id, same invitation) adds nothing.
    await identityEvent(bus, ESTATE_INVITATION_CONSUMER, 'OrganizationMemberInvited', invitation);
    const types = async () => (await eventStore.readStream(estateStream(estate.id))).map((e) => e.type);
    expect((await types()).filter((t) => t === 'EstateMemberAdded')).toHaveLength(1);

    // Removed from the estate, a replayed invitation does not bring them back.
    await bus.request(S.removeMember, request({}, { estate_id: estate.id, member_id: INVITEE }));
    await identityEvent(bus, ESTATE_INVITATION_CONSUMER, 'OrganizationMemberInvited', invitation);
    expect(await bus.request<EstateMember[]>(S.listMembers, request({}, { estate_id: estate.id }))).toEqual([]);
  });
});
