/**
 * Prints a trajectory request's plan with the household's own numbers (metered use, loans) as a text
 * summary and the full plan as JSON: `npx tsx services/calculations/src/money/cli.ts <request.json>... [--year 2026]`.
 * Offline: the planner, the catalogue and the seam only, no service.
 */
import { readFileSync } from 'node:fs';
import { TrajectoryRequest, propertyOf } from '@renopath/contracts';
import { planTrajectory } from '../planner/planner.ts';
import { enrichTrajectory } from './enrich.ts';
import { meteredUseProblems } from './metered-check.ts';

const args = process.argv.slice(2);
const yearAt = args.indexOf('--year');
const year = yearAt >= 0 ? Number(args[yearAt + 1]) : new Date().getFullYear();
const files = args.filter((a, i) => !a.startsWith('--') && i !== yearAt + 1);
if (files.length === 0) {
  process.stderr.write('usage: tsx services/calculations/src/money/cli.ts <request.json>... [--year 2026]\n');
  process.exit(2);
}
const eur = (x: number) => `EUR ${Math.round(x).toLocaleString('en-GB')}`;
for (const file of files) {
  const parsed = TrajectoryRequest.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    process.stderr.write(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}\n`);
    process.exit(2);
  }
  const request = parsed.data;
  const problems = meteredUseProblems(request);
  if (problems.length > 0) {
    process.stderr.write(`${file}: ${problems.join('; ')}\n`);
    process.exit(2);
  }
  const property = propertyOf(request);
  const plan = enrichTrajectory(planTrajectory(property, { year }), {
    property,
    household: request.household,
    metered_use: request.metered_use,
  });
  const out: string[] = [`# ${request.title ?? file}`, ''];
  out.push(
    `${plan.region}, EPC today ${plan.current.epc_score} (${plan.current.epc_label}), after the plan ${plan.final_epc_score} (${plan.energy_efficiency_indication}); prices of ${plan.price_year}`,
  );
  const c = plan.calibration;
  if (c) {
    out.push(
      `Bill today ${eur(c.bill_eur_per_year)} a year (80%: ${eur(c.bill_interval_eur_per_year.low)} to ${eur(c.bill_interval_eur_per_year.high)}), from the meter: ${c.method} fit of ${c.carrier}, ${c.metered_kwh_year} kWh metered vs ${c.modelled_kwh_year} kWh modelled (ratio ${c.ratio}); heat loss ${c.heat_loss_w_per_k} W/K (80%: ${c.heat_loss_interval_w_per_k.low}-${c.heat_loss_interval_w_per_k.high}; model ${c.modelled_heat_loss_w_per_k}), baseload ${c.baseload_kwh_year} kWh; ${c.climate}`,
    );
  } else out.push(`Bill today ${eur(plan.current.energy_cost_eur_per_year)} a year (the model's: no metered use)`);
  out.push(
    '',
    '| # | measure | net cost | grant | saving/yr (80%) | saving/month | loan | payment/month | payback (with grant) | HP kW |',
    '|---|---|---:|---:|---:|---:|---|---:|---:|---:|',
  );
  for (const s of plan.steps) {
    const f = s.financing!;
    const iv = s.cost_savings_interval_eur_per_year;
    out.push(
      `| ${s.order} | ${s.title} | ${eur(s.net_cost)} | ${eur(f.grant_eur)} | ${eur(s.cost_savings_eur_per_year)}${iv ? ` (${Math.round(iv.low)}-${Math.round(iv.high)})` : ''} | ${f.monthly_bill_saving_eur} | ${f.loan ? `${f.loan.product} ${f.loan.rate_percent}% ${f.loan.term_months / 12} y` : '-'} | ${f.loan?.monthly_payment_eur ?? '-'} | ${f.payback_years ?? '-'} (${f.payback_years_with_support ?? '-'}) | ${s.heat_pump_kw ?? ''} |`,
    );
  }
  const t = plan.totals.financing!;
  const saving = plan.steps.reduce((a, s) => a + s.cost_savings_eur_per_year, 0);
  out.push(
    '',
    `Plan: net ${eur(plan.totals.net_cost)} after ${eur(t.grant_eur)} of grants; bill after the plan ${eur(plan.current.energy_cost_eur_per_year - saving)} a year; saving ${t.monthly_bill_saving_eur} a month against ${t.loan ? `${t.loan.monthly_payment_eur} a month of ${t.loan.product} (${eur(t.loan.principal_eur)} at ${t.loan.rate_percent}% over ${t.loan.term_months / 12} years)` : 'no public loan'}; payback ${t.payback_years ?? '-'} years, ${t.payback_years_with_support ?? '-'} with the grants.`,
    '',
    '```json',
    JSON.stringify(plan, null, 2),
    '```',
    '',
  );
  process.stdout.write(`${out.join('\n')}\n`);
}
