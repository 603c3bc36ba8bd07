import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EstatesSubjects, Messages, UpdateEstateBody } from '@renopath/contracts';
import { contractMismatches, contractOf, jsonOf } from './messages.ts';
import { gatewayRoutes } from './index.ts';

const routes = gatewayRoutes;

describe("every route sends its subject's message contract", () => {
  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_, route) => {
    const contract = Messages[route.subject];
    expect(contract, `no contract for ${route.subject}`).toBeDefined();
    expect(contractMismatches(route, contract!)).toEqual([]);
    // What /openapi.json documents (the route's schemas) is what the service parses (the contract's).
    if (route.kind !== 'upload') expect(jsonOf(route.body)).toEqual(jsonOf(contract!.body));
    // A stream's pages carry the page query the gateway makes (batch, format), not the route's; so does a
    // prepared message (a trajectory job's, naming the estate estates described).
    if (route.kind !== 'stream' && !route.prepare) expect(jsonOf(route.query)).toEqual(jsonOf(contract!.query));
  });

  const updateEstate = routes.find((r) => r.subject === EstatesSubjects.updateEstate)!;

  it("finds a route whose body, ids or path parameters are not its contract's", () => {
    const contract = Messages[EstatesSubjects.updateEstate]!;
    expect(contractMismatches({ ...updateEstate, body: z.object({ name: z.string() }) }, contract)).toEqual([
      "the body schema is not the contract's",
    ]);
    expect(contractMismatches({ ...updateEstate, ids: [] }, contract)).toEqual([
      'the route does not check id estate_id',
      'path parameters estate_id vs contract params (none)',
    ]);
    expect(contractMismatches({ ...updateEstate, invalidBodyStatus: 406 }, contract)).toEqual([
      "the invalid-body status is not the contract's",
    ]);
    expect(contractMismatches(updateEstate, contract)).toEqual([]);
    expect(updateEstate.body).toBe(UpdateEstateBody);
  });

  it('refuses at start-up a route without a contract or one that disagrees', () => {
    expect(() => contractOf({ ...updateEstate, subject: 'cmd.estates.no-such-thing' })).toThrow(
      /no message contract for cmd\.estates\.no-such-thing/,
    );
    expect(() => contractOf({ ...updateEstate, query: z.object({ x: z.string() }) })).toThrow(/query schema is not the contract's/);
    expect(contractOf(updateEstate)).toBe(Messages[EstatesSubjects.updateEstate]);
  });
});
