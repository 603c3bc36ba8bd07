import { INCOME_CATEGORIES } from '@renopath/catalog';
import type { ReportLanguage, ReportMilestone, ReportModel } from '../report-model.ts';
import { formatDay, formatMoney, formatNumber, hasTranslation, t } from './index.ts';

/**
 * The conditions of a report and of the referral page in words, one function each so the PDF and
 * the page say the same thing: what the figures assume, the milestones ahead and the data quality.
 */

export function phaseName(language: ReportLanguage, phase: string | null): string {
  return phase && hasTranslation(language, `report.phase.${phase}`) ? t(language, `report.phase.${phase}`) : '–';
}

/** What the figures assume: the price year, the date of the rules, the income category and the grants for the others. */
export function assumptionSentences(language: ReportLanguage, model: Pick<ReportModel, 'conditions' | 'totals'>): string[] {
  const c = model.conditions;
  const out: string[] = [];
  if (c.price_year !== null) out.push(t(language, 'report.conditions.price_year', { year: c.price_year }));
  if (c.rules_date !== null) out.push(t(language, 'report.conditions.rules_date', { date: formatDay(language, c.rules_date) }));
  return [...out, ...incomeSentences(language, model)];
}

/** The income category the grants assume and the grants in the other categories (none where grants do not depend on income). */
export function incomeSentences(language: ReportLanguage, model: Pick<ReportModel, 'conditions' | 'totals'>): string[] {
  const income = model.conditions.income;
  if (!income) return [];
  const name = (category: string) => t(language, `report.income.${category}`);
  const out = [
    t(language, 'report.conditions.income', {
      category: name(income.category),
      amount: formatMoney(language, model.totals.subsidy_amount),
    }),
  ];
  for (const category of INCOME_CATEGORIES) {
    if (category === income.category) continue;
    out.push(
      t(language, 'report.conditions.income_other', {
        category: name(category),
        amount: formatMoney(language, income.subsidy_by_category[category]),
      }),
    );
  }
  return out;
}

/** A milestone's rule in words, with its deadline. */
export function milestoneText(language: ReportLanguage, m: ReportMilestone, deedDate: string | null): string {
  const day = (d: string | null) => (d ? formatDay(language, d) : '–');
  if (m.kind === 'TARGET') return t(language, 'report.milestone.TARGET', { label: m.label, year: (m.deadline ?? '').slice(0, 4) });
  if (m.kind === 'RENTAL_NORM')
    return t(language, 'report.milestone.RENTAL_NORM', { from_date: day(m.from_date), from: m.from_label, label: m.label });
  const key = hasTranslation(language, `report.milestone.OBLIGATION.${m.region}`)
    ? `report.milestone.OBLIGATION.${m.region}`
    : 'report.milestone.OBLIGATION.FLANDERS';
  return t(language, key, {
    from_date: day(m.from_date),
    from: m.from_label,
    label: m.label,
    within: formatNumber(language, m.within_years ?? 0),
    deadline: day(m.deadline),
    deed: day(deedDate),
  });
}

/** Whether and where the steps meet a milestone, with the label they reach there. */
export function milestoneOutcome(language: ReportLanguage, m: ReportMilestone, model: Pick<ReportModel, 'steps'>): string {
  if (m.reached_at_step === null) return t(language, 'report.milestone.not_reached');
  const after = model.steps[m.reached_at_step - 1]?.epc_label_after ?? m.label;
  return t(language, 'report.milestone.reached', { step: formatNumber(language, m.reached_at_step), after });
}

/** "Meets the renovation obligation after a purchase." under the step that first meets it, or null. */
export function stepMeets(language: ReportLanguage, model: Pick<ReportModel, 'milestones'>, order: number): string | null {
  const met = model.milestones.filter((m) => m.reached_at_step === order);
  if (met.length === 0) return null;
  const what = met
    .map((m) => t(language, 'report.milestone.with_label', { what: t(language, `report.milestone.short.${m.kind}`), label: m.label }))
    .join(', ');
  return t(language, 'report.steps.meets', { what });
}

/** The data quality in words: confidence, quality label, the inputs the model estimated and what to give. */
export function qualitySentences(language: ReportLanguage, model: Pick<ReportModel, 'confidence' | 'conditions'>): string[] {
  const out: string[] = [];
  if (model.confidence) {
    out.push(
      t(language, 'report.quality.summary', {
        score: formatNumber(language, model.confidence.score, 2),
        label: model.confidence.quality_label,
      }),
    );
  }
  const fields = model.conditions.modelled_fields.map((f) =>
    hasTranslation(language, `report.field.${f}`) ? t(language, `report.field.${f}`) : f.replaceAll('_', ' '),
  );
  if (fields.length > 0) {
    out.push(
      t(language, 'report.quality.modelled', {
        fields: new Intl.ListFormat(language === 'en' ? 'en-GB' : language, { type: 'conjunction' }).format(
          fields.map((f) => f.toLowerCase()),
        ),
      }),
    );
    out.push(t(language, 'report.quality.improve'));
  } else if (model.confidence) {
    out.push(t(language, 'report.quality.all_given'));
  }
  return out;
}
