import { describe, it } from 'vitest';
import { claimDecider } from './claim.ts';
import { deciderSpec } from './decider-spec.ts';

type Command = { type: 'Claim' | 'Release'; key: string; holder: string };
type Event = { type: 'Claimed' | 'Released'; data: { key: string; holder: string } };

const decider = claimDecider<Command, Event>({
  claim: 'Claim',
  release: 'Release',
  claimed: 'Claimed',
  released: 'Released',
  holderOf: (c) => c.holder,
  holderIn: (e) => e.data.holder,
  data: (c) => ({ key: c.key.toLowerCase(), holder: c.holder }),
  conflict: (c, holder) => `${c.key} is held by ${holder}`,
});
const spec = deciderSpec(decider);
const claimed = (holder: string): Event => ({ type: 'Claimed', data: { key: 'k', holder } });
const released = (holder: string): Event => ({ type: 'Released', data: { key: 'k', holder } });

describe('claim decider', () => {
  it('gives a free key to the first holder, with the data the spec builds', () => {
    spec
      .given([])
      .when({ type: 'Claim', key: 'K', holder: 'a' })
      .then([claimed('a')]);
  });

  it('is idempotent for the holder and refuses anyone else', () => {
    spec
      .given([claimed('a')])
      .when({ type: 'Claim', key: 'k', holder: 'a' })
      .then([]);
    spec
      .given([claimed('a')])
      .when({ type: 'Claim', key: 'k', holder: 'b' })
      .thenFails(409, /held by a/);
  });

  it('is released only by its holder, once', () => {
    spec
      .given([claimed('a')])
      .when({ type: 'Release', key: 'k', holder: 'b' })
      .then([]);
    spec
      .given([claimed('a')])
      .when({ type: 'Release', key: 'k', holder: 'a' })
      .then([released('a')]);
    spec
      .given([claimed('a'), released('a')])
      .when({ type: 'Release', key: 'k', holder: 'a' })
      .then([]);
    spec.given([]).when({ type: 'Release', key: 'k', holder: 'a' }).then([]);
  });

  it('can be claimed again once released', () => {
    spec
      .given([claimed('a'), released('a')])
      .when({ type: 'Claim', key: 'k', holder: 'b' })
      .then([claimed('b')]);
  });
});
