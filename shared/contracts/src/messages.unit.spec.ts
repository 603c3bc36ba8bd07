import { describe, expect, it } from 'vitest';
import { checkMessage, Messages } from './messages.ts';
import { CalculationsSubjects, EstatesSubjects, RenovationsSubjects } from './index.ts';

const estate_id = '0b6f2d6e-3c1a-4d2b-9f0e-5a7c8d9e0f12';
const actor = {
  user_id: '1b6f2d6e-3c1a-4d2b-9f0e-5a7c8d9e0f12',
  organization_id: '2b6f2d6e-3c1a-4d2b-9f0e-5a7c8d9e0f12',
  client_id: 'c1',
  scopes: ['estates'],
};
const request = (inputs: object) => ({ actor, correlation_id: 'req-1', ...inputs });

describe('checkMessage', () => {
  const update = Messages[EstatesSubjects.updateEstate]!;

  it('passes a valid message with its parsed inputs, the caller and the request ids', () => {
    const checked = checkMessage(update, request({ params: { estate_id }, query: {}, body: { name: 'Kouter 12' }, idempotency_key: 'k' }));
    expect(checked).toEqual({
      ok: true,
      value: { actor, correlation_id: 'req-1', idempotency_key: 'k', params: { estate_id }, query: {}, body: { name: 'Kouter 12' } },
    });
  });

  it('answers an id that is not a UUID as an unknown one (404), like the gateway', () => {
    expect(checkMessage(update, request({ params: { estate_id: 'x' }, body: {} }))).toEqual({
      ok: false,
      status: 404,
      message: ['estate not found'],
    });
    expect(checkMessage(update, request({ params: {}, body: {} }))).toEqual({ ok: false, status: 404, message: ['estate not found'] });
  });

  it("refuses a body that is not the contract's with the contract's words (400)", () => {
    const checked = checkMessage(update, request({ params: { estate_id }, body: { name: 5, colour: 'red' } }));
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.status).toBe(400);
    expect(checked.message).toEqual(expect.arrayContaining(['name must be a string', 'colour is not an allowed field']));
  });

  it('answers an invalid job request with the contract\'s status (406, docs/http-contract.md "Trajectory jobs")', () => {
    // As the gateway sends it: the estate estates described in the query, the client's body.
    const query = { estate_id: '7a1e3f52-59c5-4d6b-9c53-5d1f1b7a0c01' };
    const checked = checkMessage(Messages[CalculationsSubjects.createTrajectoryJob]!, request({ query, body: { nonsense: true } }));
    expect(checked.ok === false && checked.status).toBe(406);
  });

  it("refuses a caller that is not an actor and a query that is not the contract's", () => {
    expect(checkMessage(update, { actor: { user_id: 'me' }, correlation_id: 'r', params: { estate_id }, body: {} }).ok).toBe(false);
    const get = Messages[EstatesSubjects.getEstate]!;
    const checked = checkMessage(get, request({ params: { estate_id }, query: { as_of: 'yesterday' } }));
    expect(checked.ok === false && checked.status).toBe(400);
  });

  it('drops what the contract does not take: parameters, a query or a body nobody validated', () => {
    const get = Messages[EstatesSubjects.getEstate]!;
    const checked = checkMessage(get, request({ params: { estate_id, other: 'x' }, query: {}, body: { smuggled: true } }));
    expect(checked).toEqual({ ok: true, value: { actor, correlation_id: 'req-1', params: { estate_id }, query: {}, body: undefined } });
  });

  it('takes the optional scope ids of a renovation item, checked as UUIDs when given', () => {
    const list = Messages[RenovationsSubjects.listItems]!;
    const renovation_id = estate_id;
    expect(checkMessage(list, request({ params: { renovation_id } })).ok).toBe(true);
    expect(checkMessage(list, request({ params: { renovation_id, roof_id: estate_id } }))).toMatchObject({
      ok: true,
      value: { params: { renovation_id, roof_id: estate_id } },
    });
    expect(checkMessage(list, request({ params: { renovation_id, roof_id: 'r' } }))).toEqual({
      ok: false,
      status: 404,
      message: ['roof not found'],
    });
  });

  it('checks the request ids beside an actor it checked before as it checks them the first time', () => {
    const caller = { ...actor };
    const body = { name: 'Kouter 12' };
    const first = checkMessage(update, { actor: caller, correlation_id: 'r1', params: { estate_id }, body });
    expect(first).toMatchObject({ ok: true, value: { actor: caller, correlation_id: 'r1' } });
    // The same actor object again (the gateway hands one per verified token): ids still checked.
    expect(checkMessage(update, { actor: caller, correlation_id: 7, params: { estate_id }, body })).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(checkMessage(update, { actor: caller, idempotency_key: '', params: { estate_id }, body })).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(checkMessage(update, { actor: caller, idempotency_key: 3, params: { estate_id }, body })).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(checkMessage(update, { actor: caller, params: { estate_id }, body })).toEqual({
      ok: true,
      value: { actor: caller, correlation_id: '', params: { estate_id }, query: {}, body },
    });
    expect(checkMessage(update, { actor: caller, correlation_id: 'r2', idempotency_key: 'k2', params: { estate_id }, body })).toMatchObject(
      {
        ok: true,
        value: { actor: caller, correlation_id: 'r2', idempotency_key: 'k2' },
      },
    );
  });

  it('refuses a message that is not an object', () => {
    expect(checkMessage(update, null)).toEqual({ ok: false, status: 400, message: ['message must be an object'] });
  });
});
