import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { t } from '../src/i18n/index.ts';
import { sampleReportModel } from '../src/pdf/testing.ts';
import { REPORT_LANGUAGES, type ReportLanguage } from '../src/report-model.ts';
import { servePages } from './referral-page/page-server.ts';

/** Debian's chromium package; `.ci/run` installs it. */
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`[skip] referral page in a real browser: no Chromium at ${CHROMIUM} (apt-get install chromium)`);

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));

/** A page that records what a visitor's console would show and every request it makes. */
async function openPage(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`failed request: ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('request', (request) => requests.push(request.url()));
  return { page, problems, requests, close: () => context.close() };
}

const horizontalOverflow = (page: Page) =>
  page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));

describe.skipIf(!hasChromium)('the public referral page in Chromium', () => {
  // A house number no amount or date can contain, so its absence means the page left it out.
  const sample = sampleReportModel('nl-BE');
  const model = { ...sample, estate: { ...sample.estate, house_number: '221B' } };
  const { street, zip_code, place } = model.estate;
  const agency = model.agency!;
  let browser: Browser;
  let server: Awaited<ReturnType<typeof servePages>>;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await servePages({
      'sample-token': { model, showHouseNumber: false },
      'sample-exact': { model, showHouseNumber: true },
    });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders the labels, the chart with a mark per step and the call to action, with no console error or outside request', async () => {
    const { page, problems, requests, close } = await openPage(browser, { width: 1280, height: 900 });
    try {
      const response = await page.goto(`${server.origin}/r/sample-token`);
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe(
        t('nl-BE', 'page.title', { home: t('nl-BE', 'terms.estate_type.HOUSE'), place: `${zip_code} ${place}` }),
      );
      expect(await page.locator('.label-card.current .big-label').innerText()).toBe(model.current.epc_label);
      expect(await page.locator('.label-card.current .big-label').isVisible()).toBe(true);
      expect(await page.locator('.label-card.reachable .big-label').innerText()).toBe(model.reachable.epc_label);
      expect(await page.locator('.label-card.reachable .big-label').isVisible()).toBe(true);

      const chart = page.locator('svg.chart');
      expect(await chart.isVisible()).toBe(true);
      const box = await chart.boundingBox();
      expect(box?.width).toBeGreaterThan(200);
      expect(box?.height).toBeGreaterThan(100);
      const marks = page.locator('svg.chart .step-mark');
      expect(await marks.count()).toBe(model.steps.length);
      for (const mark of await marks.all()) {
        const markBox = await mark.boundingBox();
        expect(markBox?.width).toBeGreaterThan(0);
        expect(markBox?.height).toBeGreaterThan(0);
      }

      expect(await page.locator('table tbody tr').count()).toBe(model.steps.length);
      expect(await page.locator('.cta a[href^="tel:"]').getAttribute('href')).toBe(`tel:${agency.phone!.replace(/[^\d+]/g, '')}`);
      expect(await page.locator('.cta a[href^="mailto:"]').getAttribute('href')).toBe(`mailto:${agency.email}`);
      expect(await page.locator('.cta').innerText()).toContain(agency.name);

      await page.screenshot({ path: `${ARTIFACTS}referral-page-desktop.png`, fullPage: true });
      expect(problems).toEqual([]);
      expect(requests.filter((url) => !url.startsWith(server.origin))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('fits a 360 px phone: nothing overflows sideways and the steps read as cards', async () => {
    const { page, problems, close } = await openPage(browser, { width: 360, height: 740 });
    try {
      await page.goto(`${server.origin}/r/sample-token`);
      const { scrollWidth, innerWidth } = await horizontalOverflow(page);
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      expect(await page.locator('svg.chart').isVisible()).toBe(true);
      expect((await page.locator('svg.chart').boundingBox())?.width).toBeGreaterThan(250);

      // The header row is hidden on a phone: every cell lies inside the screen, in a readable size, and names its column.
      expect(await page.locator('table thead').isVisible()).toBe(false);
      const cells = await page.locator('table tbody td').evaluateAll((tds) =>
        tds.map((td) => {
          const rect = td.getBoundingClientRect();
          return {
            left: rect.left,
            right: rect.right,
            fontSize: parseFloat(getComputedStyle(td).fontSize),
            caption: getComputedStyle(td, '::before').content,
            text: (td as HTMLElement).innerText,
          };
        }),
      );
      expect(cells.length).toBe(model.steps.length * 8);
      for (const cell of cells) {
        expect(cell.left).toBeGreaterThanOrEqual(0);
        expect(cell.right).toBeLessThanOrEqual(innerWidth);
        expect(cell.fontSize).toBeGreaterThanOrEqual(12);
      }
      const columns = (
        ['col_step', 'col_measure', 'col_phase', 'col_label_after', 'col_cost', 'col_vat', 'col_grants', 'col_net'] as const
      ).map((key) => `"${t('nl-BE', `page.${key}`)}"`);
      expect(cells.slice(0, 8).map((cell) => cell.caption)).toEqual(columns);
      expect(cells[1]?.text).toContain(t('nl-BE', `components.${model.steps[0]!.renovation_component_type}`));

      await page.screenshot({ path: `${ARTIFACTS}referral-page-phone.png`, fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("shows the conditions: the income the grants assume and the others' grants, the milestones with the step that meets them, the data quality, the phases", async () => {
    const { page, problems, close } = await openPage(browser, { width: 1024, height: 900 });
    try {
      await page.goto(`${server.origin}/r/sample-token`);
      const income = await page.locator('.summary .income').innerText();
      expect(income).toContain(t('nl-BE', 'report.income.MIDDLE'));
      expect(income).toContain(t('nl-BE', 'report.income.LOW'));
      const block = page.locator('.conditions-block');
      expect(await block.isVisible()).toBe(true);
      const text = await block.innerText();
      expect(text).toContain(t('nl-BE', 'page.milestones_heading'));
      expect(text).toContain(t('nl-BE', 'page.quality_heading'));
      expect(text).toContain('2031');
      const obligation = model.milestones.find((m) => m.kind === 'OBLIGATION')!;
      expect(
        await page
          .locator('table tbody tr')
          .nth(obligation.reached_at_step! - 1)
          .locator('.meets')
          .innerText(),
      ).toContain(t('nl-BE', 'report.milestone.short.OBLIGATION'));
      expect(await page.locator('table tbody td.phase').first().innerText()).toBe(t('nl-BE', 'report.phase.ROOF'));
      await block.screenshot({ path: `${ARTIFACTS}referral-page-conditions.png` });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('switches language through its links, every language with its own headings', async () => {
    const { page, problems, close } = await openPage(browser, { width: 1024, height: 800 });
    try {
      await page.goto(`${server.origin}/r/sample-token`);
      const heading = (language: ReportLanguage) => t(language, 'page.chart_heading');
      expect(await page.locator('html').getAttribute('lang')).toBe('nl-BE');
      expect(await page.locator('.chart-block h2').innerText()).toBe(heading('nl-BE'));
      for (const language of REPORT_LANGUAGES.filter((l) => l !== 'nl-BE')) {
        await Promise.all([
          page.waitForURL(`**/r/sample-token?lang=${language}`),
          page.locator(`nav.languages a[hreflang="${language}"]`).click(),
        ]);
        expect(await page.locator('html').getAttribute('lang')).toBe(language);
        expect(await page.locator('.chart-block h2').innerText()).toBe(heading(language));
        expect(await page.locator('.steps h2').innerText()).toBe(t(language, 'page.steps_heading'));
        expect(await page.locator('nav.languages a[aria-current="page"]').getAttribute('hreflang')).toBe(language);
      }
      // The headings differ between the languages, so the checks above could tell one from another.
      expect(new Set(REPORT_LANGUAGES.map(heading)).size).toBeGreaterThan(1);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows the street but not the house number, unless the agency allows it', async () => {
    const { page, close } = await openPage(browser, { width: 1024, height: 800 });
    try {
      await page.goto(`${server.origin}/r/sample-token`);
      expect(await page.locator('.address').innerText()).toBe(`${street}, ${zip_code} ${place}`);
      expect(await page.content()).not.toContain('221B');
      await page.goto(`${server.origin}/r/sample-exact`);
      expect(await page.locator('.address').innerText()).toBe(`${street} 221B, ${zip_code} ${place}`);
    } finally {
      await close();
    }
  });

  it('answers an unknown token with a friendly page in the asked language', async () => {
    const { page, problems, close } = await openPage(browser, { width: 360, height: 740 });
    try {
      const response = await page.goto(`${server.origin}/r/no-such-token?lang=fr-BE`);
      expect(response?.status()).toBe(404);
      expect(await page.locator('h1').innerText()).toBe(t('fr-BE', 'page.not_found_title'));
      expect(await page.locator('html').getAttribute('lang')).toBe('fr-BE');
      const { scrollWidth, innerWidth } = await horizontalOverflow(page);
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      // Chromium reports the document's own 404 status on the console; nothing else may appear.
      expect(problems.filter((p) => !/status of 404/.test(p))).toEqual([]);
    } finally {
      await close();
    }
  });
});
