import { describe, expect, it } from 'vitest';
import pageEn from '../../data/i18n/page.en.json' with { type: 'json' };
import { translations } from '../i18n/index.ts';
import { REPORT_LANGUAGES, type ReportModel } from '../report-model.ts';
import { emptyReportModel, sampleReportModel } from '../pdf/testing.ts';
import { renderReferralNotFound, renderReferralPage, type ReferralPageOptions } from './index.ts';

/** The PDF's sample home, with a house number nothing else on the page can contain. */
function sampleReferralModel(overrides: Partial<ReportModel> = {}): ReportModel {
  const sample = sampleReportModel('nl-BE');
  return { ...sample, estate: { ...sample.estate, house_number: '221B' }, ...overrides };
}

const options: ReferralPageOptions = { languages: REPORT_LANGUAGES, hrefFor: (l) => `?lang=${l}`, showHouseNumber: false };

describe('renderReferralPage', () => {
  it('escapes whatever the agency or the estate data holds', () => {
    const model = sampleReferralModel({
      agency: { name: '<script>alert(1)</script>', phone: '+32 9 "123"', email: 'a@b.example', website: 'javascript:alert(1)' },
    });
    model.estate.street = '<img src=x onerror=alert(1)>';
    const html = renderReferralPage(model, options);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&#60;img src=x');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('href="tel:+329123"');
  });

  it('says so when the visitor asked for a language the page does not have, in the language it is shown in', () => {
    const html = renderReferralPage(sampleReferralModel(), { ...options, unavailableLanguage: 'xx<b>' });
    expect(html).toContain('role="status"');
    expect(html).toContain('Deze pagina bestaat niet in');
    expect(html).toContain('xx&#60;b&#62;');
    expect(renderReferralPage(sampleReferralModel(), options)).not.toContain('role="status"');
  });

  it('puts the two label badges under captions of one height, a score line under each even without a score', () => {
    const model = sampleReferralModel();
    const html = renderReferralPage({ ...model, reachable: { ...model.reachable, epc_score: null } }, options);
    expect(html.match(/<p class="score">/g)).toHaveLength(2);
    expect(html).toMatch(/\.caption\{[^}]*flex:1 0 auto/);
  });

  it('links only to the agency: no stylesheet, image, font or script from elsewhere', () => {
    const html = renderReferralPage(sampleReferralModel(), options);
    expect(html).not.toMatch(/<(script|img|link|iframe|object)\b/i);
    expect(html).not.toMatch(/\bsrc=/i);
    expect(html).not.toMatch(/url\(/i);
    const external = [...html.matchAll(/href="(https?:[^"]*)"/g)].map((m) => m[1]);
    expect(external).toEqual(['https://zonnewijzer.example/']);
  });

  it('keeps the house number out unless the agency allows it', () => {
    const model = sampleReferralModel();
    expect(renderReferralPage(model, options)).not.toContain('221B');
    expect(renderReferralPage(model, { ...options, showHouseNumber: true })).toContain(`${model.estate.street} 221B`);
  });

  it('offers exactly the given languages, marking the page own one', () => {
    const html = renderReferralPage(sampleReferralModel({ language: 'fr-BE' }), { ...options, languages: ['fr-BE', 'nl-BE'] });
    expect([...html.matchAll(/hreflang="([^"]+)"/g)].map((m) => m[1])).toEqual(['fr-BE', 'nl-BE']);
    expect(html).toMatch(/href="\?lang=fr-BE" hreflang="fr-BE" lang="fr-BE" aria-current="page"/);
    expect(html).toContain('<html lang="fr-BE">');
  });

  it('renders a home nothing is known about: unknown labels, no chart, no table, no call to action details', () => {
    const html = renderReferralPage(emptyReportModel('en'), options);
    expect(html).toContain(translations('en', 'terms')['label_unknown']);
    expect(html).toContain(translations('en', 'page')['cta_text_no_agency']);
    expect(html).not.toMatch(/href="(tel|mailto):/);
    expect(html).not.toContain('<svg');
    expect(html).not.toContain('<table');
  });

  it('says so when no step could be planned, without a chart or a table', () => {
    const model = sampleReferralModel({ steps: [] });
    const html = renderReferralPage(model, options);
    expect(html).not.toContain('<svg');
    expect(html).not.toContain('<table');
    expect(html).toContain(translations('nl-BE', 'page')['no_steps']);
  });
});

describe('the page strings', () => {
  it('exist in every language for every key', () => {
    for (const language of REPORT_LANGUAGES) {
      expect(Object.keys(translations(language, 'page')).sort(), language).toEqual(Object.keys(pageEn).sort());
    }
  });
});

describe('renderReferralNotFound', () => {
  it('is a page in the asked language that names no estate', () => {
    const html = renderReferralNotFound('nl-NL');
    expect(html).toContain('<html lang="nl-NL">');
    expect(html).toContain(translations('nl-NL', 'page')['not_found_title']);
  });
});
