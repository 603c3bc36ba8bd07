import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPORT_LANGUAGES } from '../report-model.ts';
import { conditionLines, conditionText } from './grant-conditions.ts';
import { internalTagsIn } from './testing.ts';

/** Every condition the catalogue's grant rules carry, from its data files. */
const GRANTS_DIR = fileURLToPath(new URL('../../../../shared/catalog/data/grants/', import.meta.url));
const catalogueConditions = [
  ...new Set(
    readdirSync(GRANTS_DIR)
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) =>
        (JSON.parse(readFileSync(`${GRANTS_DIR}${f}`, 'utf8')) as { rules: Array<{ conditions: string[] }> }).rules.flatMap(
          (r) => r.conditions,
        ),
      ),
  ),
];

describe('grant conditions in the report languages', () => {
  it('say every condition of the catalogue in every language, without its evidence tags or notes', () => {
    expect(catalogueConditions.length).toBeGreaterThan(20);
    for (const language of REPORT_LANGUAGES) {
      for (const condition of catalogueConditions) {
        const text = conditionText(language, condition);
        expect(text, `${language}: ${condition}`).not.toBeNull();
        expect(internalTagsIn(text!), `${language}: ${text}`).toEqual([]);
      }
    }
  });

  it('say why a rule gives nothing, with the measures by their names', () => {
    expect(
      conditionText(
        'fr-BE',
        'Not eligible for Mijn VerbouwPremie: only together with one of INCLINED_ROOF_INSULATION_INSIDE, FLAT_ROOF_INSULATION.',
      ),
    ).toBe(
      'Pas de Mijn VerbouwPremie : uniquement avec Isolation de toiture inclinée par l’intérieur, Isolation de toiture plate (toiture chaude).',
    );
    expect(conditionText('nl-BE', 'Not eligible for ISDE: the dwelling must be at least 15 years old.')).toBe(
      'Geen ISDE: de woning moet minstens 15 jaar oud zijn.',
    );
  });

  it('sum up a condition the file does not know in one line of the language, never in English', () => {
    const lines = conditionLines('nl-NL', ['A condition added to the catalogue later.', 'Rd >= 3.5 m2K/W.']);
    expect(lines).toEqual(['Warmteweerstand (Rd) van minimaal 3,5 m²K/W.', expect.stringContaining('subsidieverstrekker')]);
  });
});
