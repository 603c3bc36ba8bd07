import { describe, expect, it } from 'vitest';
import { PropertyDescription } from '@renopath/contracts';
import { planTrajectory } from './planner.ts';
import casesJson from './advisor/cases.json' with { type: 'json' };

/**
 * Words that follow the numbers: every label, EPC score and euro amount a step's rationale names is
 * one of that step's own figures (the label and score before and after it, its cost incl. VAT, its
 * grant, its yearly saving), over the advisor suite's homes in all four regions.
 */
const cases = casesJson.cases.map((c) => ({ id: c.id, property: PropertyDescription.parse(c.property) }));
const euros = (text: string) => [...text.matchAll(/EUR ([\d,]+)/g)].map((m) => Number(m[1]!.replaceAll(',', '')));

describe("a step's rationale", () => {
  it.each(cases.map((c) => [c.id, c.property] as const))("%s: names only the step's own labels, scores and amounts", (_id, property) => {
    const plan = planTrajectory(property, { year: 2026 });
    // A plan stopped for a check has no steps, and its reason is the words.
    if (plan.stopped) return expect(plan.steps).toEqual([]);
    let before = { label: plan.current.epc_label, score: plan.current.epc_score };
    for (const step of plan.steps) {
      const r = step.rationale;
      const where = `${step.order} ${step.renovation_component_type}: ${r}`;
      const labels = [...r.matchAll(/\blabel ([A-G][+-]*)/g)].map((m) => m[1]);
      expect(labels, where).toContain(step.epc_label_after);
      for (const label of labels) expect([before.label, step.epc_label_after], where).toContain(label);
      const scores = [...r.matchAll(/score (?:from (-?\d+) to (-?\d+)|stays at (-?\d+))/g)].flatMap((m) =>
        m.slice(1).filter(Boolean).map(Number),
      );
      expect(scores.at(-1), where).toBe(Math.round(step.epc_score_after));
      if (scores.length === 2) expect(scores[0], where).toBe(Math.round(before.score));
      const allowed = [step.estimated_cost + step.estimated_vat_cost, step.subsidy_amount, Math.abs(step.cost_savings_eur_per_year)].map(
        Math.round,
      );
      for (const amount of euros(r)) expect(allowed, where).toContain(amount);
      expect(euros(r), where).toContain(Math.round(step.estimated_cost + step.estimated_vat_cost));
      if (step.subsidy_amount >= 0.5) expect(euros(r), where).toContain(Math.round(step.subsidy_amount));
      before = { label: step.epc_label_after, score: step.epc_score_after };
    }
  });
});
