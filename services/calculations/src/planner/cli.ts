/**
 * Prints the suggested trajectory of one home as a table, from a JSON trajectory request (a file, or
 * stdin with `-`): `npm run -s plan -- home.json [--year 2026] [--income LOW|MIDDLE|HIGH] [--deed YYYY-MM-DD] [--json]`.
 * Offline: the planner and the catalogue only, no service.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { IncomeCategory, PropertyDescription, TrajectoryRequest, propertyOf } from '@renopath/contracts';
import { planTrajectory, type PlanOptions } from './planner.ts';

function usage(message: string): never {
  process.stderr.write(
    `${message}\nusage: npm run -s plan -- <request.json | -> [--year 2026] [--income LOW|MIDDLE|HIGH] [--deed YYYY-MM-DD] [--json]\n`,
  );
  process.exit(2);
}

// An unknown option or a missing value is a usage error (exit 2), as a missing file is.
const cli = (() => {
  try {
    return parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: { year: { type: 'string' }, income: { type: 'string' }, deed: { type: 'string' }, json: { type: 'boolean' } },
    });
  } catch (err) {
    return usage((err as Error).message);
  }
})();
const file = cli.positionals[0];
if (!file) usage('a request file is needed');
const flag = (name: 'year' | 'income' | 'deed') => cli.values[name];

let body: unknown;
try {
  body = JSON.parse(readFileSync(file === '-' ? 0 : file, 'utf8'));
} catch (err) {
  usage(`cannot read ${file}: ${(err as Error).message}`);
}
const parsed = TrajectoryRequest.safeParse(body);
if (!parsed.success) usage(`not a trajectory request: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
const property: PropertyDescription = PropertyDescription.parse(propertyOf(parsed.data));
// The CLI may read the clock: today's date tells a purchase still to come from one made.
const options: PlanOptions = { year: Number(flag('year') ?? new Date().getFullYear()), today: new Date().toISOString().slice(0, 10) };
const income = flag('income');
if (income) options.incomeCategory = IncomeCategory.parse(income);
const deed = flag('deed');
if (deed) options.deedDate = deed;
if (parsed.data.household) options.household = parsed.data.household;

const plan = planTrajectory(property, options);
if (cli.values.json) {
  process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
  process.exit(0);
}

const eur = (x: number) => Math.round(x).toLocaleString('en-GB');
const out: string[] = [];
out.push(
  `${plan.region} (${plan.energy_efficiency_type}), today: score ${plan.current.epc_score}, label ${plan.current.epc_label}; prices of ${plan.price_year}`,
);
out.push('');
out.push('| # | phase | element | measure | cost excl. VAT | VAT | grant | net | label after | milestones |');
out.push('|---|---|---|---|---:|---:|---:|---:|---|---|');
for (const s of plan.steps) {
  const works = s.supporting_works.length ? ` (+ ${s.supporting_works.map((w) => w.title.toLowerCase()).join(', ')})` : '';
  const marks = [
    ...s.milestones.map((m) => `${m.kind} ${m.label}${m.conditional_on ? ' (if the purchase goes ahead)' : ''}`),
    ...(s.bill_increase
      ? [
          `bill +${eur(s.bill_increase.eur_per_year)}/yr: ${s.bill_increase.optional ? 'optional, ' : ''}price of ${s.bill_increase.serves.toLowerCase()}`,
        ]
      : []),
  ].join(', ');
  out.push(
    `| ${s.order} | ${s.phase} | ${s.element} | ${s.title}, ${Math.round(s.quantity * 10) / 10} ${s.unit}${works} | ${eur(s.estimated_cost)} | ${eur(s.estimated_vat_cost)} | ${eur(s.subsidy_amount)} | ${eur(s.net_cost)} | ${s.epc_label_after} (${Math.round(s.epc_score_after)}) | ${marks} |`,
  );
}
const t = plan.totals;
out.push(
  `| | | | total | ${eur(t.estimated_cost)} | ${eur(t.estimated_vat_cost)} | ${eur(t.subsidy_amount)} | ${eur(t.net_cost)} | ${plan.energy_efficiency_indication} | target ${plan.target.label} ${plan.target.reached ? 'reached' : 'NOT reached'} |`,
);
out.push('');
if (plan.left_out.length) {
  out.push('Left out or treated with a lesser variant:');
  for (const o of plan.left_out) out.push(`- ${o.element} (${o.code}): ${o.reason}`);
}
for (const m of plan.milestones_missed) out.push(`- not reached: ${m.kind} ${m.label} (${m.description})`);
if (plan.stopped) out.push(`STOPPED (${plan.stopped.code}): ${plan.stopped.reason}`);
if (plan.inputs_needed.length)
  out.push(`Quality ${plan.quality_label} (confidence ${plan.confidence_score}); inputs needed: ${plan.inputs_needed.join(', ')}`);
for (const m of plan.steps.flatMap((s) => s.milestones.map((x) => ({ ...x, order: s.order })))) {
  const by = `${m.conditional_on ? 'hypothetically by' : 'by'} ${m.deadline ?? 'no date'}`;
  out.push(
    `- milestone on step ${m.order}: ${m.kind} ${m.label} ${by} (applies ${m.conditional_on ? '' : 'because '}${m.applies_because})`,
  );
}
out.push('');
out.push('What each step builds, and its grant:');
for (const s of plan.steps) {
  out.push(`${s.order}. ${s.title}${s.planned_year ? ` (planned for ${s.planned_year})` : ''}: ${s.specification.summary}`);
  const joined = s.supporting_works.filter((w) => w.joined).map((w) => w.title);
  if (joined.length) out.push(`   with: ${joined.join(', ')}`);
  out.push(
    `   grant ${s.grant_conditions.status}${s.grant_conditions.schemes.length ? ` (${s.grant_conditions.schemes.join(', ')})` : ''}: ${s.grant_conditions.conditions.join(' ') || 'no conditions'}`,
  );
  if (s.permit) out.push(`   permit: ${s.permit}`);
  if (s.co_ownership)
    out.push(`   decided by: ${s.co_ownership.association}${s.co_ownership.share ? `, share ${s.co_ownership.share}` : ''}`);
}
out.push('');
out.push('Why each step:');
for (const s of plan.steps) out.push(`${s.order}. ${s.rationale}`);
process.stdout.write(`${out.join('\n')}\n`);
