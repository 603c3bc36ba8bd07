import { describe, expect, it } from 'vitest';
import { DomainError } from '@renopath/platform';
import { fold } from '@renopath/platform/service/decider.ts';
import type { PassportEvent } from '@renopath/contracts';
import { prefillContent } from './content.ts';
import { passportDecider, type PassportCommand } from './passport.decider.ts';
import { SAMPLE_ESTATE, sampleMetadata } from './testing.ts';

const content = prefillContent(sampleMetadata(), SAMPLE_ESTATE);
const ids = { estate_id: '00000000-0000-4000-8000-000000000001', organization_id: '00000000-0000-4000-8000-000000000002' };
const draft = (passport_id: string): PassportCommand => ({
  type: 'DraftPassport',
  passport_id,
  ...ids,
  calculation_job_id: '00000000-0000-4000-8000-000000000003',
  created_at: '2026-12-01T10:00:00.000Z',
  content,
});
const P1 = '00000000-0000-4000-8000-0000000000a1';
const P2 = '00000000-0000-4000-8000-0000000000a2';
const visit = { date: '2026-11-30', advisor_name: 'An Advisor', accreditation_number: 'EP-1', notes: null };
const amend = (patch: Extract<PassportCommand, { type: 'AmendPassport' }>['patch'] = { site_visit: visit }): PassportCommand => ({
  type: 'AmendPassport',
  passport_id: P1,
  estate_id: ids.estate_id,
  updated_at: '2026-12-01T11:00:00.000Z',
  patch,
});
const sign = (edition: number): PassportCommand => ({
  type: 'SignPassport',
  edition,
  passport_id: P1,
  estate_id: ids.estate_id,
  signed_at: '2026-12-01T12:00:00.000Z',
  signed_by: { advisor_name: 'An Advisor', accreditation_number: 'EP-1' },
  content_sha256: 'a'.repeat(64),
  signature: 'x.y.z',
  verification_url: `https://renopath.example/renovation-passports/${P1}/verification`,
});

/** given events, when a command, then events (or the error's status). */
function when(given: PassportEvent[], command: PassportCommand): PassportEvent[] | number {
  try {
    return passportDecider.decide(command, fold(passportDecider, given));
  } catch (err) {
    if (err instanceof DomainError) return err.status;
    throw err;
  }
}
const then = (given: PassportEvent[], command: PassportCommand) => {
  const out = when(given, command);
  if (typeof out === 'number') throw new Error(`refused with ${out}`);
  return [...given, ...out];
};

describe('the passports of an estate', () => {
  it('numbers passports 1, 2, ... per estate; a retried draft records nothing', () => {
    const first = then([], draft(P1));
    expect(first[0]).toMatchObject({ type: 'RenovationPassportDrafted', data: { version: 1 } });
    expect(when(first, draft(P1))).toEqual([]);
    expect(when(first, draft(P2))).toMatchObject([{ data: { version: 2, passport_id: P2 } }]);
  });

  it('refuses to sign without a site visit (422), signs after one, and a signed passport is final (409)', () => {
    const drafted = then([], draft(P1));
    expect(when(drafted, sign(0))).toBe(422);
    const visited = then(drafted, amend());
    const signed = then(visited, sign(1));
    expect(signed.at(-1)).toMatchObject({ type: 'RenovationPassportSigned' });
    expect(when(signed, amend())).toBe(409);
    expect(when(signed, sign(1))).toBe(409);
  });

  it("carries on the signed event what its webhook announces, to the drafter's URL for the drafter's client", () => {
    const hooked: PassportCommand = { ...draft(P1), webhook_url: 'https://bank.example/hooks', client_id: 'client-1' } as PassportCommand;
    const signed = then(then(then([], hooked), amend()), sign(1)).at(-1)!;
    expect(signed).toMatchObject({
      type: 'RenovationPassportSigned',
      data: {
        version: 1,
        calculation_job_id: '00000000-0000-4000-8000-000000000003',
        verification_url: `https://renopath.example/renovation-passports/${P1}/verification`,
        webhook: { url: 'https://bank.example/hooks', client_id: 'client-1' },
      },
    });
    // Drafted without a URL: the event says there is no webhook.
    const plain = then(then(then([], draft(P2)), { ...amend(), passport_id: P2 } as PassportCommand), {
      ...sign(1),
      passport_id: P2,
    } as PassportCommand);
    expect(plain.at(-1)).toMatchObject({ type: 'RenovationPassportSigned', data: { webhook: null } });
  });

  it('refuses a signature made of an older edition (the content changed meanwhile)', () => {
    const visited = then(then([], draft(P1)), amend());
    expect(when(visited, sign(0))).toBe(409);
  });

  it('applies edits cumulatively to the pre-filled content: a later PATCH keeps the earlier drop and visit', () => {
    const dropped = then(then([], draft(P1)), amend({ steps: [{ plan_order: 2, drop: true }] }));
    const visited = then(dropped, amend({ site_visit: visit }));
    const last = visited.at(-1)!;
    if (last.type !== 'RenovationPassportAmended') throw new Error('expected an amendment');
    expect(last.data.content.steps.map((s) => s.plan_order)).toEqual([1, 3]);
    expect(last.data.content.site_visit).toEqual(visit);
    expect(when(visited, amend({ steps: [{ plan_order: 7, drop: true }] }))).toBe(400);
  });

  it('answers 404 for a passport the estate does not have', () => {
    expect(when([], amend())).toBe(404);
  });
});
