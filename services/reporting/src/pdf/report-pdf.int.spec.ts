import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { componentName, formatDate, formatMoney, translations } from '../i18n/index.ts';
import { foreignStringsIn, plain } from '../i18n/testing.ts';
import { REPORT_LANGUAGES, type ReportModel } from '../report-model.ts';
import { renderReportPdf } from './index.ts';
import { inflateSync } from 'node:zlib';
import { labelColours } from '../label-colours.ts';
import { renderReferralPage } from '../referral-page/index.ts';
import { labelColour } from './label-colours.ts';
import { ACCENT, PAGE } from './layout.ts';
import { emptyReportModel, sampleReportModel } from './testing.ts';

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
const HAS_PDFTOPPM = spawnSync('pdftoppm', ['-v']).error === undefined;

/** The PDF's text, page after page, each page's lines top to bottom. */
async function pdfText(bytes: Uint8Array): Promise<{ pages: string[]; text: string }> {
  const pdf = await getDocument({
    data: new Uint8Array(bytes),
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0,
  }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    const lines = new Map<number, Array<{ x: number; str: string }>>();
    for (const item of content.items) {
      if (!('str' in item) || item.str.length === 0) continue;
      const y = Math.round(item.transform[5]);
      lines.set(y, [...(lines.get(y) ?? []), { x: item.transform[4], str: item.str }]);
    }
    pages.push(
      [...lines.entries()]
        .sort((a, b) => b[0] - a[0])
        .map(([, items]) =>
          items
            .sort((a, b) => a.x - b.x)
            .map((i) => i.str)
            .join(' '),
        )
        .join('\n'),
    );
  }
  await pdf.destroy();
  return { pages, text: pages.join('\n') };
}

/**
 * Renders one page to a PNG under test-artifacts/ (for a person to look at) and reads back its size:
 * the page is drawn, on an A4 portrait sheet. Tests that call it skip where pdftoppm is missing.
 */
function pngOf(pdf: Uint8Array, page: number, name: string): { width: number; height: number } {
  mkdirSync(ARTIFACTS, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'report-pdf-'));
  try {
    writeFileSync(join(dir, 'report.pdf'), pdf);
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '80',
      '-f',
      String(page),
      '-l',
      String(page),
      '-singlefile',
      join(dir, 'report.pdf'),
      join(ARTIFACTS, name),
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const png = readFileSync(join(ARTIFACTS, `${name}.png`));
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  // IHDR, the first chunk: width and height in pixels at 80 dpi (A4 is 595 x 842 points, 72 a inch).
  const size = { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  expect(size.width).toBe(Math.ceil((PAGE.width * 80) / 72));
  expect(size.height).toBe(Math.ceil((PAGE.height * 80) / 72));
  return size;
}
const withPdftoppm = it.skipIf(!HAS_PDFTOPPM);
if (!HAS_PDFTOPPM) console.warn('[skip] pdftoppm is not installed: the tests that render pages to PNG are skipped');

/** A page rendered as pixels (pdftoppm's PPM): width, height and RGB bytes. */
function pixelsOf(pdf: Uint8Array, page: number): { width: number; height: number; rgb: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'report-ppm-'));
  try {
    writeFileSync(join(dir, 'report.pdf'), pdf);
    execFileSync('pdftoppm', [
      '-r',
      '50',
      '-f',
      String(page),
      '-l',
      String(page),
      '-singlefile',
      join(dir, 'report.pdf'),
      join(dir, 'page'),
    ]);
    const ppm = readFileSync(join(dir, 'page.ppm'));
    const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'))!;
    return { width: Number(header[1]), height: Number(header[2]), rgb: ppm.subarray(header[0].length) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How many pixels of a page have this colour (0..1 components, as the renderer drew it), in the rows from `top` to `bottom` (shares of the height). */
function pixelsOfColour(
  image: ReturnType<typeof pixelsOf>,
  colour: { red: number; green: number; blue: number },
  top = 0,
  bottom = 1,
): number {
  const want = [colour.red, colour.green, colour.blue].map((c) => Math.round(c * 255));
  let count = 0;
  for (let y = Math.floor(top * image.height); y < Math.floor(bottom * image.height); y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 3;
      if (
        Math.abs(image.rgb[i]! - want[0]!) <= 3 &&
        Math.abs(image.rgb[i + 1]! - want[1]!) <= 3 &&
        Math.abs(image.rgb[i + 2]! - want[2]!) <= 3
      )
        count++;
    }
  }
  return count;
}

const asRgb = (c: unknown) => c as { red: number; green: number; blue: number };
const tinted = (c: unknown, share: number) => {
  const { red, green, blue } = asRgb(c);
  return { red: 1 - share * (1 - red), green: 1 - share * (1 - green), blue: 1 - share * (1 - blue) };
};

describe('the PDF report', () => {
  for (const language of REPORT_LANGUAGES) {
    describe(language, () => {
      const model = sampleReportModel(language);
      let rendered: Promise<{ pdf: Uint8Array; text: string; pages: string[] }> | undefined;
      const render = () => (rendered ??= renderReportPdf(model).then(async (pdf) => ({ pdf, ...(await pdfText(pdf)) })));

      it('shows the overview figures of the model in the language’s money format', async () => {
        const { text } = await render();
        const flat = plain(text);
        const money = (v: number) => plain(formatMoney(language, v));
        for (const figure of Object.values(model.totals)) expect(flat).toContain(money(figure));
        for (const step of model.steps) {
          expect(flat).toContain(money(step.net_cost));
          expect(flat).toContain(money(step.cumulative_net_cost));
        }
        for (const category of model.grants) expect(flat).toContain(money(category.total_subsidy_amount));
        expect(flat).toContain(plain(formatDate(language, model.generated_at)));
        expect(flat).toContain(`${model.estate.street} ${model.estate.house_number}`);
        expect(flat).toContain(`${model.estate.zip_code} ${model.estate.place}`);
        // Accents and the euro sign come through the embedded fonts as text, not as missing glyphs.
        expect(flat).toContain('€');
        expect(flat).not.toContain('?');
      });

      it('shows the current and reachable label and every step', async () => {
        const { pages } = await render();
        const cover = plain(pages[0]!);
        expect(cover).toContain(model.current.epc_label!);
        expect(cover).toContain(model.reachable.epc_label!);
        const table = plain(pages.join('\n'));
        for (const step of model.steps) expect(table).toContain(componentName(language, step.renovation_component_type).split(' ')[0]!);
      });

      it('numbers its pages', async () => {
        const { pages } = await render();
        const last = translations(language, 'report')
          ['footer.page']!.replace('{page}', String(pages.length))
          .replace('{pages}', String(pages.length));
        expect(plain(pages[pages.length - 1]!)).toContain(last);
      });

      it('has no text of another language', async () => {
        const { text } = await render();
        // Grant conditions are quoted in the scheme's own wording, which may be another language.
        expect(foreignStringsIn(language, text)).toEqual([]);
      });

      withPdftoppm('keeps a PNG of every page as a test artifact', async () => {
        const { pdf, pages } = await render();
        pages.forEach((_, i) => pngOf(pdf, i + 1, `report-${language}-page-${i + 1}`));
      });

      withPdftoppm(
        "draws its elements: the cover's banner and label badges, the chart's label bands and markers, the table's label badges",
        async () => {
          const { pdf, pages } = await render();
          const report = translations(language, 'report');
          // Every page has content in its body (above the footer), not only a heading: at least 2% of it is not white.
          for (let n = 1; n <= pages.length; n++) {
            const image = pixelsOf(pdf, n);
            const body = image.width * Math.floor(0.9 * image.height);
            expect(body - pixelsOfColour(image, { red: 1, green: 1, blue: 1 }, 0, 0.9), `page ${n}`).toBeGreaterThan(body * 0.02);
          }

          const cover = pixelsOf(pdf, 1);
          expect(pixelsOfColour(cover, asRgb(ACCENT), 0, 0.1), 'banner').toBeGreaterThan(cover.width * 10);
          for (const label of [model.current.epc_label, model.reachable.epc_label]) {
            expect(pixelsOfColour(cover, asRgb(labelColour(model.scale, label).fill), 0.4, 0.8), `badge ${label}`).toBeGreaterThan(100);
          }

          const chartPage = pages.findIndex((p) => p.includes(report['chart.labels_title']!)) + 1;
          const chart = pixelsOf(pdf, chartPage);
          for (const label of model.labels) {
            const fill = labelColour(model.scale, label).fill;
            // The ladder's badge and the label's band across the plot.
            expect(pixelsOfColour(chart, asRgb(fill)), `ladder ${label}`).toBeGreaterThan(20);
            expect(pixelsOfColour(chart, tinted(fill, 0.18)), `band ${label}`).toBeGreaterThan(200);
          }

          const tablePages = pages.flatMap((p, i) => (p.includes(report['steps.col.phase']!) ? [i + 1] : []));
          expect(tablePages.length).toBeGreaterThan(0);
          const tables = tablePages.map((n) => pixelsOf(pdf, n));
          for (const label of new Set(model.steps.map((st) => st.epc_label_after))) {
            const fill = asRgb(labelColour(model.scale, label).fill);
            expect(
              tables.reduce((sum, image) => sum + pixelsOfColour(image, fill), 0),
              `table badge ${label}`,
            ).toBeGreaterThan(20);
          }
        },
      );
    });
  }

  describe('with partial data', () => {
    const renders = async (model: ReportModel) => {
      const pdf = await renderReportPdf(model);
      expect(pdf.subarray(0, 5)).toEqual(new TextEncoder().encode('%PDF-'));
      return plain((await pdfText(pdf)).text);
    };

    it('renders without address, photo, labels, steps, grants, sources, confidence or agency', async () => {
      for (const language of REPORT_LANGUAGES) {
        const text = await renders(emptyReportModel(language));
        const report = translations(language, 'report');
        expect(text).toContain(report['cover.address_unknown']!);
        expect(text).toContain(report['grants.none']!);
        expect(text).toContain(report['confidence.none']!);
      }
    });

    it('renders steps whose label is unknown and components the catalogue no longer has', async () => {
      const model = sampleReportModel('en', { stepCount: 3 });
      model.steps[1] = { ...model.steps[1]!, epc_label_after: null, epc_score_after: null, renovation_component_type: 'RETIRED_COMPONENT' };
      model.reachable = { epc_score: null, epc_label: null };
      const text = await renders(model);
      expect(text).toContain('RETIRED_COMPONENT');
      expect(text).toContain(translations('en', 'terms')['label_unknown']!);
    });

    it('titles a home given without a street by its place, in the language of the report, with no empty photo box', async () => {
      const model = sampleReportModel('nl-BE', { stepCount: 1 });
      model.estate = { ...model.estate, street: null, house_number: null, title: null, zip_code: '9000', place: 'Gent', photo: null };
      const pdf = await renderReportPdf(model);
      const first = plain((await pdfText(pdf)).pages[0]!);
      expect(first).toContain('Woning in 9000 Gent');
      // No image and no frame waiting for one: the page holds no image object.
      expect(Buffer.from(pdf).toString('latin1')).not.toMatch(/\/Subtype\s*\/Image/);
      const fr = sampleReportModel('fr-BE', { stepCount: 1 });
      fr.estate = { ...fr.estate, street: null, house_number: null, title: null, zip_code: '1000', place: 'Bruxelles', photo: null };
      expect(plain((await pdfText(await renderReportPdf(fr))).pages[0]!)).toContain('Habitation à 1000 Bruxelles');
    });

    it("titles the cover with the estate's own title where no street is known, not with the postcode alone", async () => {
      const model = sampleReportModel('nl-BE', { stepCount: 1 });
      model.estate = { ...model.estate, street: null, house_number: null, title: 'Hoeve ter Linde' };
      const { pages } = await pdfText(await renderReportPdf(model));
      expect(plain(pages[0]!)).toMatch(new RegExp(`Hoeve ter Linde\\s+${model.estate.zip_code} ${model.estate.place}`));
    });

    it('wraps a very long address and keeps the rest of the cover', async () => {
      const model = sampleReportModel('fr-BE', { stepCount: 2 });
      model.estate.street =
        'Chaussée de la Grande Route Départementale Numéro Quarante-Deux Entre Les Deux Villages Du Plateau Et La Vallée De La Meuse';
      const pdf = await renderReportPdf(model);
      const { pages } = await pdfText(pdf);
      expect(plain(pages[0]!)).toContain('Chaussée de la Grande Route');
      expect(plain(pages[0]!)).toContain(plain(formatMoney('fr-BE', model.totals.net_cost)));
      if (HAS_PDFTOPPM) pngOf(pdf, 1, 'report-long-address-cover');
    });

    it('shows a damaged photo as none', async () => {
      const broken = sampleReportModel('nl-BE', { stepCount: 1 });
      broken.estate.photo = { bytes: new Uint8Array([0xff, 0xd8, 0xff, 0x00, 1, 2, 3]), mimetype: 'image/jpeg' };
      // The cover goes on without it: the totals below the (absent) photo are there.
      expect(await renders(broken)).toContain(plain(formatMoney('nl-BE', broken.totals.net_cost)));
    });

    withPdftoppm('shows a JPEG photo', async () => {
      // A JPEG made from a rendered page: the repository keeps no image files.
      const dir = mkdtempSync(join(tmpdir(), 'report-jpeg-'));
      try {
        writeFileSync(join(dir, 'source.pdf'), await renderReportPdf(sampleReportModel('en', { stepCount: 1 })));
        execFileSync('pdftoppm', ['-jpeg', '-r', '30', '-f', '1', '-l', '1', '-singlefile', join(dir, 'source.pdf'), join(dir, 'photo')]);
        const model = sampleReportModel('nl-BE', { stepCount: 1 });
        model.estate.photo = { bytes: new Uint8Array(readFileSync(join(dir, 'photo.jpg'))), mimetype: 'image/jpeg' };
        const pdf = await renderReportPdf(model);
        expect(Buffer.from(pdf).toString('latin1')).toMatch(/\/Subtype\s*\/Image/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});

/** The fill colours (`r g b rg`) a PDF's content streams set, as #rrggbb. */
function pdfFillColours(pdf: Uint8Array): Set<string> {
  const raw = Buffer.from(pdf);
  const colours = new Set<string>();
  const text = raw.toString('latin1');
  for (const match of text.matchAll(/stream\r?\n/g)) {
    const start = match.index! + match[0].length;
    const end = text.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(raw.subarray(start, end)).toString('latin1');
    } catch {
      content = raw.subarray(start, end).toString('latin1');
    }
    for (const [, r, g, b] of content.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) rg/g)) {
      colours.add(
        `#${[r, g, b]
          .map((v) =>
            Math.round(Number(v) * 255)
              .toString(16)
              .padStart(2, '0'),
          )
          .join('')}`,
      );
    }
  }
  return colours;
}

describe('the PDF report and the public page of the same home', () => {
  it('use the same words and the same label colours in fr-BE', async () => {
    const model = sampleReportModel('fr-BE', { stepCount: 3 });
    const pdf = await renderReportPdf(model);
    const pdfWords = plain((await pdfText(pdf)).text);
    const html = renderReferralPage(
      { ...model, estate: { ...model.estate, photo: null } },
      { languages: ['fr-BE', 'nl-BE', 'en'], hrefFor: (l) => `?lang=${l}`, showHouseNumber: false },
    );
    const pageWords = plain(html.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))));
    const terms = translations('fr-BE', 'terms');
    // The label scale, the current and reachable label, the kind of home: one wording in both.
    for (const key of ['current_label', 'reachable_label', `scale.${model.scale}`, `estate_type.${model.estate.estate_type}`]) {
      expect(terms[key], key).toBeTruthy();
      expect(pdfWords, `PDF: ${key}`).toContain(plain(terms[key]!));
      expect(pageWords, `page: ${key}`).toContain(plain(terms[key]!));
    }
    // Each label the home has or reaches, in the scale's one colour in both.
    const fills = pdfFillColours(pdf);
    const labels = new Set([model.current.epc_label, model.reachable.epc_label, ...model.steps.map((st) => st.epc_label_after)]);
    for (const label of labels) {
      const { fill } = labelColours(model.scale, label);
      expect(fills.has(fill.toLowerCase()), `PDF fill of ${label}`).toBe(true);
      expect(html, `page fill of ${label}`).toContain(`background:${fill}`);
    }
    // The page draws no label in a colour the scale does not give it.
    const pageFills = [...html.matchAll(/style="background:(#[0-9a-f]{6})[;"]/gi)].map(([, fill]) => fill!.toLowerCase());
    const scaleFills = new Set(model.labels.map((label) => labelColours(model.scale, label).fill.toLowerCase()));
    expect(pageFills.length).toBeGreaterThan(0);
    expect(pageFills.filter((fill) => !scaleFills.has(fill))).toEqual([]);
  });
});
