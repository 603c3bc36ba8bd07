import type { EnergyEfficiencyType, PropertyDescription } from '@renopath/contracts';
import type { DataQualityFlag } from '@renopath/energy';
import rules from './data/gap-filling.json' with { type: 'json' };
import type { ProviderUse } from './fill-gaps.ts';
import type { EnergyEfficiencyProvider, ImpactEstimate } from './providers.ts';

const { ratio_min: RATIO_MIN, ratio_max: RATIO_MAX } = rules.impact_cross_check;

export interface ImpactCrossCheck {
  /** At most one flag: PROVIDER_IMPACT_MISMATCH, PROVIDER_UNAVAILABLE or PROVIDER_NO_DATA. */
  flags: DataQualityFlag[];
  used: ProviderUse;
  provider: ImpactEstimate | null;
}

/**
 * Whether the provider's improvement agrees with the model's within the data file's ratio band
 * (data/gap-filling.json impact_cross_check). No measures (no improvement modelled): nothing to check.
 */
export function compareImpact(model: { score_before: number; score_after: number }, provider: ImpactEstimate): DataQualityFlag | null {
  const modelled = model.score_before - model.score_after;
  if (modelled === 0) return null;
  const ratio = (provider.score_before - provider.score_after) / modelled;
  if (ratio >= RATIO_MIN && ratio <= RATIO_MAX) return null;
  return {
    field: 'energy_efficiency_score',
    code: 'PROVIDER_IMPACT_MISMATCH',
    message:
      `the energy-efficiency provider expects the renovation to move the score from ${round(provider.score_before)} to ${round(provider.score_after)}, ` +
      `the model from ${round(model.score_before)} to ${round(model.score_after)}: check the described home before relying on the expected improvement`,
  };
}

const round = (v: number) => Math.round(v);

/**
 * After planning: asks the provider for the renovation's impact and flags a disagreement with the
 * model. The provider only checks; the result stays the model's.
 */
export async function crossCheckImpact(
  provider: EnergyEfficiencyProvider | undefined,
  input: {
    property: PropertyDescription;
    renovated: PropertyDescription;
    model: { score_before: number; score_after: number };
    scale: EnergyEfficiencyType;
  },
): Promise<ImpactCrossCheck> {
  if (!provider) return { flags: [], used: 'NOT_CONFIGURED', provider: null };
  if (input.model.score_before === input.model.score_after) return { flags: [], used: 'NOT_NEEDED', provider: null };
  const answer = await provider.estimateImpact(input.property, input.renovated);
  if (answer.status !== 'OK') {
    const code = answer.status === 'UNAVAILABLE' ? 'PROVIDER_UNAVAILABLE' : 'PROVIDER_NO_DATA';
    return {
      flags: [{ field: 'energy_efficiency_score', code, message: `${answer.reason}: the renovation's impact was not cross-checked` }],
      used: answer.status,
      provider: null,
    };
  }
  if (answer.data.energy_efficiency_type !== input.scale) {
    return {
      flags: [
        {
          field: 'energy_efficiency_score',
          code: 'PROVIDER_VALUE_REJECTED',
          message: `the energy-efficiency provider answered on the ${answer.data.energy_efficiency_type} scale, not ${input.scale}: the impact was not cross-checked`,
        },
      ],
      used: 'NO_DATA',
      provider: null,
    };
  }
  const flag = compareImpact(input.model, answer.data);
  return { flags: flag ? [flag] : [], used: 'OK', provider: answer.data };
}
