/**
 * Runs the model over the handbook's calibration cases and prints per case and overall figures for
 * stratum A (Flemish EPC scores) and stratum B (TABULA heat need), with leave-one-out results for the
 * fitted certificate correction. Exit code 1 when a target of the issue is missed.
 */
import {
  crossValidateStratumA, fitStratumA, handbookDir, loadCases, runStratumA, runStratumB, summariseA, summariseB,
  type CaseA, type SummaryA,
} from '../calibration/harness.ts';
import { DEFAULT_PARAMETERS } from '../model/parameters.ts';
import { TARGETS } from '../calibration/targets.ts';

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const f2 = (x: number) => x.toFixed(2);
const f3 = (x: number) => x.toFixed(3);
const pad = (s: string | number, n: number) => String(s).padEnd(n);
const lpad = (s: string | number, n: number) => String(s).padStart(n);

function printCasesA(rows: readonly CaseA[]): void {
  console.log(`  ${pad('case', 15)}${pad('year', 6)}${pad('format', 10)}${lpad('m2', 6)}${lpad('obs', 7)}${lpad('pred', 7)}  obs/pred label  w1  ${lpad('ln', 6)}${lpad('APE', 8)}`);
  for (const r of rows) {
    console.log(`  ${pad(r.id, 15)}${pad(r.year_built, 6)}${pad(r.estate_format, 10)}${lpad(Math.round(r.habitable_space_m2), 6)}${lpad(Math.round(r.observed), 7)}${lpad(Math.round(r.predicted), 7)}  ${pad(`${r.observed_label}/${r.predicted_label}`, 15)}${r.within_one_class ? 'yes' : 'no '} ${lpad(f2(r.ln_ratio), 6)}${lpad(pct(r.ape), 8)}`);
  }
}

function printSummaryA(title: string, s: SummaryA): void {
  console.log(`  ${title} (n=${s.n})`);
  console.log(`    median |ln(pred/obs)|   ${f3(s.median_abs_ln)}`);
  console.log(`    median APE              ${pct(s.median_ape)}   (bootstrap 95 % ${pct(s.ci95.median_ape[0])} - ${pct(s.ci95.median_ape[1])})`);
  console.log(`    within one class        ${pct(s.within_one_class)}   (bootstrap 95 % ${pct(s.ci95.within_one_class[0])} - ${pct(s.ci95.within_one_class[1])})`);
  console.log(`    label exact             ${pct(s.label_exact)}`);
  console.log(`    bias median ln          ${f3(s.bias_median_ln)}`);
  console.log(`    MAE                     ${s.mae.toFixed(0)} kWh/m2.yr`);
  console.log(`    Spearman                ${f3(s.spearman)}`);
  console.log(`    bias by age band        ${Object.entries(s.bias_by_age_band).map(([k, v]) => `${k} ${f2(v.median_ln)} (n=${v.n})`).join(', ')}`);
  console.log(`    bias by format          ${Object.entries(s.bias_by_format).map(([k, v]) => `${k} ${f2(v.median_ln)} (n=${v.n})`).join(', ')}`);
}

function main(): void {
  const dir = handbookDir();
  const cases = loadCases(dir);
  const failures: string[] = [];
  console.log(`Calibration cases: ${cases.length} from the handbook's data/calibration-cases.json`);

  console.log('\nSTRATUM A - real Flemish EPC scores (inputs: year, format, area, glazing flag)');
  const uncorrected = summariseA(runStratumA(cases, { certificateCorrection: { ...DEFAULT_PARAMETERS.certificateCorrection, regions: [] } }));
  const rows = runStratumA(cases);
  printCasesA(rows);
  const shipped = summariseA(rows);
  printSummaryA('Shipped model (data/calibration.json), in-sample', shipped);
  console.log(`  Physics without the certificate correction: median |ln| ${f3(uncorrected.median_abs_ln)}, median APE ${pct(uncorrected.median_ape)}, within one class ${pct(uncorrected.within_one_class)}`);

  const fit = fitStratumA(cases);
  const rec = DEFAULT_PARAMETERS.certificateCorrection;
  const diffs = [
    fit.correction.log_scale - rec.log_scale, fit.correction.size_exponent - rec.size_exponent,
    ...fit.correction.age_bands.map((b, i) => b.log_factor - rec.age_bands[i]!.log_factor),
    fit.correction.formats.OPEN - rec.formats.OPEN, fit.correction.formats.CLOSED - rec.formats.CLOSED,
  ].map(Math.abs);
  const same = Math.max(...diffs) < 1e-3;
  console.log(`  Fitted parameters (7, fit on all 47): log_scale ${f3(fit.correction.log_scale)}, size_exponent ${f3(fit.correction.size_exponent)}, age bands ${fit.correction.age_bands.map((b) => `<=${b.to_year}: ${f3(b.log_factor)}`).join(', ')}, OPEN ${f3(fit.correction.formats.OPEN)}, CLOSED ${f3(fit.correction.formats.CLOSED)}`);
  console.log(`  Recorded parameters equal this fit: ${same ? 'yes' : 'NO - rerun the fit and update data/calibration.json'}`);
  if (!same) failures.push('recorded parameters differ from the fit');

  const cv = crossValidateStratumA(cases);
  const oof = summariseA(cv.rows);
  printSummaryA('Leave-one-out (every parameter refitted without the held-out case), out-of-fold', oof);
  const range = (xs: number[]) => `${f3(Math.min(...xs))} .. ${f3(Math.max(...xs))}`;
  console.log(`    fold parameter ranges   log_scale ${range(cv.folds.map((f) => f.correction.log_scale))}, size_exponent ${range(cv.folds.map((f) => f.correction.size_exponent))}, OPEN ${range(cv.folds.map((f) => f.correction.formats.OPEN))}`);

  console.log('\nSTRATUM B - TABULA net heat need, heating_need_kwh_per_m2 (20 C TABULA conditions)');
  const b = runStratumB(cases);
  console.log(`  ${pad('case', 18)}${pad('year', 6)}${pad('format', 10)}${lpad('obs', 8)}${lpad('pred', 8)}${lpad('error', 9)}`);
  for (const r of b) console.log(`  ${pad(r.id, 18)}${pad(r.year_built, 6)}${pad(r.estate_format, 10)}${lpad(r.observed.toFixed(1), 8)}${lpad(r.predicted.toFixed(1), 8)}${lpad(pct(r.relative_error), 9)}`);
  const sb = summariseB(b);
  for (const [country, s] of Object.entries(sb.by_country)) {
    console.log(`  ${country} (n=${s.n}): MAPE ${pct(s.mape)}, median |rel. error| ${pct(s.median_abs_rel)}, mean signed ${pct(s.mean_signed_rel)}`);
  }
  console.log(`  Monotonic check 1 (need falls with year, per country and format): ${sb.monotonic_in_year.pass ? 'pass' : `FAIL ${sb.monotonic_in_year.violations.join('; ')}`}`);
  console.log(`  Monotonic check 2 (CLOSED < SEMI_OPEN < OPEN, per country and year): ${sb.ordered_by_format.pass ? 'pass' : `FAIL ${sb.ordered_by_format.violations.join('; ')}`}`);

  console.log('\nTARGETS (issue "The energy model", Done when)');
  const check = (label: string, ok: boolean) => { console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${label}`); if (!ok) failures.push(label); };
  check(`A within one class >= ${pct(TARGETS.stratumA.withinOneClassMin)}: in-sample ${pct(shipped.within_one_class)}, out-of-fold ${pct(oof.within_one_class)}`,
    shipped.within_one_class >= TARGETS.stratumA.withinOneClassMin && oof.within_one_class >= TARGETS.stratumA.withinOneClassMin);
  check(`A median APE < ${pct(TARGETS.stratumA.medianApeMax)}: in-sample ${pct(shipped.median_ape)}, out-of-fold ${pct(oof.median_ape)}`,
    shipped.median_ape < TARGETS.stratumA.medianApeMax && oof.median_ape < TARGETS.stratumA.medianApeMax);
  for (const [country, s] of Object.entries(sb.by_country)) {
    check(`B ${country} MAPE < ${pct(TARGETS.stratumB.mapeMax)}: ${pct(s.mape)}`, s.mape < TARGETS.stratumB.mapeMax);
  }
  check('B monotonicity checks', sb.monotonic_in_year.pass && sb.ordered_by_format.pass);
  if (failures.length > 0) process.exitCode = 1;
}

main();
