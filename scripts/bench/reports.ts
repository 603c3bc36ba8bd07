import { renderReportPdf } from '@renopath/reporting/pdf/index.ts';
import { sampleReportModel } from '@renopath/reporting/pdf/testing.ts';
import { REPORT_LANGUAGES } from '@renopath/reporting/report-model.ts';

/**
 * The PDF report of a 12-step trajectory (chart, table with supporting works, grants, photo), rendered
 * in process: p50 and p99 over RUNS renders after a warm-up (fonts parsed, code compiled), the four
 * languages in turn. Target p50 and p99 < 300 ms.
 */
const RUNS = Number(process.env['BENCH_REPORT_RUNS'] ?? 50);
const WARM_UP = 5;
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

export async function benchReports() {
  const models = REPORT_LANGUAGES.map((language) => sampleReportModel(language, { stepCount: 12 }));
  for (let i = 0; i < WARM_UP; i++) await renderReportPdf(models[i % models.length]!);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const pdf = await renderReportPdf(models[i % models.length]!);
    times.push(performance.now() - start);
    bytes += pdf.length;
  }
  const p50 = quantile(times, 0.5);
  const p99 = quantile(times, 0.99);
  console.log(
    `reports: 12-step PDF, ${RUNS} renders: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms ` +
      `(target < 300 ms: ${p99 < 300 ? 'met' : 'MISSED'}), ${(bytes / RUNS / 1024).toFixed(0)} KiB per PDF`,
  );
  return { p50, p99 };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) await benchReports();
