import { describe, expect, it } from 'vitest';
import { extractPdfText } from '@renopath/calculations/epc-document/index.ts';
import type { RenovationPassport } from '@renopath/contracts';
import { foreignStringsIn, plain } from '../i18n/testing.ts';
import { REPORT_LANGUAGES } from '../report-model.ts';
import { contentSha256 } from './canonical-json.ts';
import { applyEdits, prefillContent } from './content.ts';
import { renderPassportPdf } from './passport-pdf.ts';
import { SAMPLE_ESTATE, sampleMetadata } from './testing.ts';

const visit = { date: '2026-11-30', advisor_name: 'Els Peeters', accreditation_number: 'EP-2026-0417', notes: null };
const content = applyEdits(
  prefillContent(sampleMetadata(), SAMPLE_ESTATE),
  { steps: [{ plan_order: 1, estimated_cost: 9000, note: 'Battens replaced too' }], step_order: null },
  visit,
);
const passport = (status: 'DRAFT' | 'SIGNED'): RenovationPassport => ({
  id: '00000000-0000-4000-8000-0000000000a1',
  version: 1,
  status,
  estate_id: '00000000-0000-4000-8000-000000000001',
  calculation_job_id: '00000000-0000-4000-8000-000000000003',
  created_at: '2026-12-01T10:00:00.000Z',
  updated_at: '2026-12-01T12:00:00.000Z',
  signed_at: status === 'SIGNED' ? '2026-12-01T12:00:00.000Z' : null,
  signed_by: status === 'SIGNED' ? { advisor_name: 'Els Peeters', accreditation_number: 'EP-2026-0417' } : null,
  content_sha256: status === 'SIGNED' ? contentSha256(content) : null,
  signature: status === 'SIGNED' ? 'a.b.c' : null,
  verification_url:
    status === 'SIGNED' ? 'https://renopath.example/renovation-passports/00000000-0000-4000-8000-0000000000a1/verification' : null,
  webhook_url: null,
  content,
});
const textOf = async (bytes: Uint8Array) => plain(await extractPdfText(bytes));

describe('the printable passport', () => {
  it.each(REPORT_LANGUAGES)(
    '%s: the signature block with the hash, the advisor and the visit, and no text of another language',
    async (language) => {
      const text = await textOf(
        await renderPassportPdf({ passport: passport('SIGNED'), language, generated_at: '2026-12-01T12:00:00.000Z' }),
      );
      expect(text).toContain(contentSha256(content));
      expect(text).toContain('EP-2026-0417');
      expect(text).toContain('Battens replaced too');
      expect(foreignStringsIn(language, text)).toEqual([]);
    },
  );

  it('says a draft is not signed and prints no hash', async () => {
    const text = await textOf(
      await renderPassportPdf({ passport: passport('DRAFT'), language: 'en', generated_at: '2026-12-01T12:00:00.000Z' }),
    );
    expect(text).toContain('DRAFT');
    expect(text).toContain('Not signed');
    expect(text).not.toContain(contentSha256(content));
  });
});
