import { describe, expect, it } from 'vitest';
import { IndicationRequest, propertyOf, TrajectoryRequest } from '@renopath/contracts';
import { INTERFACE_SPEC, bodyOf, setPath } from '@renopath/contracts/testing/interface-spec.ts';
import { evaluate } from './evaluate.ts';
import { propertyFromIndication } from './indication.ts';

/**
 * The model reads what clients send: every field and enum value of the trajectory request as the product owner specified it
 * and old-style indication body (the list in shared/contracts/conformance/interface.json) parses and
 * evaluates to a score and label, one field at a time on top of the required ones.
 */
function variants(name: 'TrajectoryRequest' | 'IndicationRequest'): Array<[string, Record<string, unknown>]> {
  const request = INTERFACE_SPEC.requests[name]!;
  const out: Array<[string, Record<string, unknown>]> = [];
  for (const [path, field] of Object.entries(request.fields)) {
    const values = field.enum ? INTERFACE_SPEC.enums[field.enum]! : [undefined];
    for (const value of values) {
      const body = bodyOf(request, INTERFACE_SPEC.enums, [path]);
      if (value !== undefined) setPath(body, path, field.type === 'string[]' ? [value] : value);
      out.push([`${path}=${JSON.stringify(value ?? body[path])}`, body]);
    }
  }
  return out;
}

describe('the energy model takes trajectory requests as written', () => {
  it('evaluates a trajectory request with each documented field and enum value', () => {
    const failed: string[] = [];
    for (const [label, body] of variants('TrajectoryRequest')) {
      const parsed = TrajectoryRequest.safeParse(body);
      if (!parsed.success) {
        failed.push(`${label}: refused (${parsed.error.issues.map((i) => i.message).join('; ')})`);
        continue;
      }
      const result = evaluate(propertyOf(parsed.data));
      if (!Number.isFinite(result.epc_score) || !result.epc_label) failed.push(`${label}: no score`);
    }
    expect(failed).toEqual([]);
  });

  it('evaluates an old-style indication body with each documented field and enum value', () => {
    const failed: string[] = [];
    for (const [label, body] of variants('IndicationRequest')) {
      const parsed = IndicationRequest.safeParse(body);
      if (!parsed.success) {
        failed.push(`${label}: refused`);
        continue;
      }
      const result = evaluate(propertyFromIndication(parsed.data));
      if (!Number.isFinite(result.epc_score) || !result.epc_label) failed.push(`${label}: no score`);
    }
    expect(failed).toEqual([]);
  });

  it('reads the coarse fields as given: solar panels without a size still lower the score', () => {
    const base = { year_built: 1975, estate_format: 'SEMI_OPEN', habitable_space_m2: 150, zip_code: '9000', country: 'BE' } as const;
    const without = evaluate(propertyOf(TrajectoryRequest.parse({ ...base, has_solar_panels: false })));
    const withPanels = evaluate(propertyOf(TrajectoryRequest.parse({ ...base, has_solar_panels: true })));
    expect(withPanels.epc_score).toBeLessThan(without.epc_score);
  });
});
