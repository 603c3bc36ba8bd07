import { describe, expect, it } from 'vitest';
import { grantConditionsText, specificationText } from './passport-pdf.ts';

describe("a passport step's specification and grant, as a contractor reads them", () => {
  it('prints only the figures the step has, each with its unit, never an empty field', () => {
    const text = specificationText('nl-BE', {
      summary: 'Spouwvulling',
      target_u_value: null,
      target_r_value: 1.1,
      insulation_thickness_cm: 6,
      material_class: null,
      glazing_u_value: null,
      frame: null,
      scop: null,
      power_kw: null,
      source: 'https://example.org/spec',
    });
    expect(text).toContain('R ≥ 1,1 m²K/W');
    expect(text).toContain('6 cm');
    expect(text).not.toMatch(/: ;|: $|scop|power|source|null/i);
  });

  it("names the grant's standing in the reader's language, with its schemes and conditions", () => {
    const grant = { status: 'NOT_YET_SOURCED' as const, schemes: [], conditions: [] };
    expect(grantConditionsText('fr-BE', grant)).toMatch(/pas encore connue/);
    expect(grantConditionsText('en', { status: 'GRANTED', schemes: ['Mijn VerbouwPremie'], conditions: ['R >= 4.5 m2K/W'] })).toBe(
      'granted · Mijn VerbouwPremie · R >= 4.5 m2K/W',
    );
  });
});
