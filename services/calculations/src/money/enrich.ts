/**
 * The seam between the planner and the household's own numbers (docs/domain.md "Metered use and the
 * money per step"): the plan as the planner made it, fitted to the household. With metered use, the
 * bill today and each step's saving are those of the calibrated home, with an 80% interval; the heat
 * pump is sized on the calibrated heat loss at the region's design temperature; every step and the
 * plan carry their financing. The EPC score and label are the asset rating and are never changed.
 */
import { applyEffect } from '@renopath/catalog';
import { PLANNER_DATA } from '@renopath/catalog/planner-data.ts';
import type {
  DataSource,
  Household,
  MeteredCalibration,
  MeteredUse,
  PropertyDescription,
  TrajectoryPlan,
  TrajectoryStep,
} from '@renopath/contracts';
import { evaluate, type Evaluation } from '@renopath/energy';
import { factors } from '@renopath/energy/model/data.ts';
import { calibrate, heatPumpKw, homeModelOf, type CalibrationFit, type HomeModel } from '@renopath/energy/metered/index.ts';
import { financingOf, type LoanContext } from './financing.ts';

export interface EnrichInput {
  /** The home as the plan was made for (the request filled by document and providers). */
  property: PropertyDescription;
  sources?: Record<string, DataSource>;
  household?: Household;
  metered_use?: MeteredUse;
}

/** Steps whose saving follows the space heating: the calibration scales them; hot water and PV are left as modelled. */
const HEATING_ELEMENTS = new Set(['ROOF', 'WALLS', 'WINDOWS', 'FLOOR', 'VENTILATION', 'HEAT_GENERATOR', 'HEAT_EMITTERS', 'OIL_TANK']);
const round2 = (x: number) => Math.round(x * 100) / 100;
const round1 = (x: number) => Math.round(x * 10) / 10;

function isHeatPumpStep(s: TrajectoryStep): boolean {
  return s.element === 'HEAT_GENERATOR' && s.renovation_component_type.includes('HEAT_PUMP');
}

function modelOf(p: PropertyDescription, sources?: Record<string, DataSource>): Evaluation {
  return evaluate(p, sources ? { sources: sources as never } : {});
}

function lossOf(e: Evaluation): number {
  return e.heat_loss.h_transmission_w_per_k + e.heat_loss.h_ventilation_w_per_k;
}

/** The calibration's figures for the plan, with the factor on heating savings and its 80% bounds. */
function calibration(
  plan: TrajectoryPlan,
  fit: CalibrationFit,
  home: HomeModel,
  country: 'BE' | 'NL',
): { meta: MeteredCalibration; factor: number; low: number; high: number } {
  const price = factors.prices_eur_per_kwh[country][fit.carrier];
  const modelledHeating = fit.modelled_heating_kwh_year;
  const factor = fit.heating_kwh_year / modelledHeating;
  const bill = plan.current.energy_cost_eur_per_year + (fit.metered_kwh_year - fit.modelled_kwh_year) * price;
  const spreadLow = (fit.heating_kwh_year - fit.heating_low_kwh_year) * price;
  const spreadHigh = (fit.heating_high_kwh_year - fit.heating_kwh_year) * price;
  return {
    factor,
    low: fit.heating_low_kwh_year / modelledHeating,
    high: fit.heating_high_kwh_year / modelledHeating,
    meta: {
      method: fit.method,
      carrier: fit.carrier,
      heat_loss_w_per_k: round1(fit.heat_loss_w_per_k),
      heat_loss_interval_w_per_k: { low: round1(fit.heat_loss_low_w_per_k), high: round1(fit.heat_loss_high_w_per_k) },
      modelled_heat_loss_w_per_k: round1(home.heat_loss_w_per_k),
      baseload_kwh_year: Math.round(fit.baseload_kwh_year),
      metered_kwh_year: Math.round(fit.metered_kwh_year),
      modelled_kwh_year: Math.round(fit.modelled_kwh_year),
      ratio: Math.round((fit.metered_kwh_year / fit.modelled_kwh_year) * 1000) / 1000,
      climate: fit.climate,
      bill_eur_per_year: round2(bill),
      bill_interval_eur_per_year: { low: round2(Math.max(0, bill - spreadLow)), high: round2(bill + spreadHigh) },
      from_meter: [
        'current.energy_cost_eur_per_year',
        'steps[].cost_savings_eur_per_year (roof, walls, windows, floor, ventilation, heat generator and emitters)',
        'steps[].heat_pump_kw',
        'steps[].financing.monthly_bill_saving_eur and paybacks',
      ],
      note: `The EPC score and label are the asset rating of the described home and do not change with metered use. ${fit.notes.join('; ')}`.trim(),
    },
  };
}

/**
 * The plan fitted to the household. Without metered use the bill and savings stay the model's (the
 * expected use of the described home) and the heat pump is sized on the model's heat loss.
 */
export function enrichTrajectory(plan: TrajectoryPlan, input: EnrichInput): TrajectoryPlan {
  const country = input.property.country;
  const today = modelOf(input.property, input.sources);
  const flags = [...plan.data_quality.flags];
  let cal: ReturnType<typeof calibration> | null = null;
  let home: HomeModel | null = null;
  if (input.metered_use) {
    home = homeModelOf(today, PLANNER_DATA.pv_sizing.household_kwh_per_year[country]);
    const fit = home ? calibrate(input.metered_use, home) : null;
    if (fit && home) cal = calibration(plan, fit, home, country);
    else
      flags.push({
        field: 'metered_use',
        code: 'METERED_USE_NOT_CALIBRATED',
        message: home
          ? `the readings do not cover the ${home.carrier.toLowerCase().replace('_', ' ')} the home is heated with: the bill stays the model's`
          : "the home's heat comes from a carrier the meter fields do not cover: the bill stays the model's",
      });
  }
  const ratioOfLoss = cal ? cal.meta.heat_loss_w_per_k / lossOf(today) : 1;

  const ctx: LoanContext = { region: plan.region, household: input.household, date: `${plan.price_year}-07-01` };
  let property = input.property;
  const steps = plan.steps.map((step) => {
    const out: TrajectoryStep = { ...step };
    if (isHeatPumpStep(step)) {
      // Sized on the home as insulated by the steps before it, scaled to what the meter says the home loses.
      out.heat_pump_kw = round1(heatPumpKw(lossOf(modelOf(property, input.sources)) * ratioOfLoss, country));
    }
    if (cal && HEATING_ELEMENTS.has(step.element)) {
      const s = step.cost_savings_eur_per_year;
      out.cost_savings_eur_per_year = round2(s * cal.factor);
      const a = round2(s * cal.low);
      const b = round2(s * cal.high);
      out.cost_savings_interval_eur_per_year = { low: Math.min(a, b), high: Math.max(a, b) };
    }
    out.financing = financingOf(
      {
        cost_incl_vat: step.estimated_cost + step.estimated_vat_cost,
        grant: step.subsidy_amount,
        saving_per_year: out.cost_savings_eur_per_year,
      },
      ctx,
    );
    property = applyEffect(step.renovation_component_type, property, step.quantity);
    return out;
  });
  const saving = steps.reduce((a, s) => a + s.cost_savings_eur_per_year, 0);
  const totals = {
    ...plan.totals,
    financing: financingOf(
      { cost_incl_vat: plan.totals.total_estimated_cost_incl_vat, grant: plan.totals.subsidy_amount, saving_per_year: saving },
      ctx,
    ),
  };
  const enriched: TrajectoryPlan = { ...plan, steps, totals, data_quality: { ...plan.data_quality, flags } };
  if (cal) {
    enriched.current = { ...plan.current, energy_cost_eur_per_year: cal.meta.bill_eur_per_year };
    enriched.calibration = cal.meta;
    enriched.assumptions = [
      ...plan.assumptions,
      `Bill and savings calibrated on the household's metered ${cal.meta.carrier.toLowerCase().replace('_', ' ')} (${cal.meta.method.toLowerCase()} fit, ${Math.round(cal.meta.ratio * 100)}% of the modelled use); the EPC score stays the asset rating.`,
    ];
  }
  return enriched;
}
