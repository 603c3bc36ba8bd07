import { PLANNER_DATA, appliesTo, getNode, stateOrderBlocks } from '@renopath/catalog';
import type { Evaluation, VariantScore } from '@renopath/energy';
import type { PlanElement, PlanOmission, PlanPhase, PropertyDescription, Region } from '@renopath/contracts';

/**
 * The elements of a home as an energy advisor walks through them (docs/domain.md "The planner"):
 * for each, whether it is below the long-term standard, and if so the variants that bring it there
 * (the planner prices them and takes the cheapest). Structure and reasons live here; the thresholds
 * are in the catalogue's planner.json.
 */

export interface ElementContext {
  /** The home as planned so far, its gaps filled with the model's typology defaults. */
  view: Partial<PropertyDescription>;
  /** The home before any step (same filling). */
  original: Partial<PropertyDescription>;
  /** The home as planned so far, without the typology's filling: what the client said plus the steps' effects. */
  stated: Partial<PropertyDescription>;
  region: Region;
  base: Evaluation;
  /** Types planned so far. */
  planned: readonly string[];
  /** The home as planned so far, scored (its design heat load for the radiator check). */
  current?: VariantScore;
}

/** What the planner does with an element: a step with one of these variants (each adequate), or nothing, and why. */
export type ElementDecision =
  | {
      variants: string[];
      /** Said in `left_out` next to the step (a lesser variant and why). */
      note?: Omit<PlanOmission, 'element'>;
      /** Facts the variants rest on that the client did not give: set on the home with the step, and said in the plan's assumptions. */
      assume?: { facts: Partial<PropertyDescription>; assumption: string };
      /** The permit the works need (a protected facade, townscape or listed building), named on the step. */
      permit?: string;
      /** Why this variant, where the home's own facts decide it (overrides the variant's general reason). */
      reason?: string;
      /** A top-up of a LIGHT or partly filled insulation: planned only when it repays itself within the measure's life. */
      topUp?: string;
      /** The share of the measure's quantity the home may take (panels only on the roof slopes the street does not see). */
      quantityShare?: number;
    }
  | { omit: Omit<PlanOmission, 'element'> | null };

export interface ElementRule {
  element: PlanElement;
  phase: PlanPhase;
  /** Decided only once this element of the same phase is decided (emitters and the oil tank follow the generator). */
  follows?: PlanElement;
  decide(ctx: ElementContext): ElementDecision;
}

const STANDARDS = PLANNER_DATA.standards;
const insulated = (level: string | undefined | null): boolean =>
  level != null && (STANDARDS.insulation_good_enough as readonly string[]).includes(level);
const APARTMENTS = new Set(['APARTMENT', 'DUPLEX', 'STUDIO', 'PENTHOUSE']);
export const isFlat = (v: Partial<PropertyDescription>) => v.estate_type !== undefined && APARTMENTS.has(v.estate_type);
const WATER_HEAT_PUMPS = new Set(['AIR_WATER_HEAT_PUMP', 'GEOTHERMAL_HEAT_PUMP', 'HYBRID_HEAT_PUMP']);
const FULL_HEAT_PUMPS = new Set(['AIR_WATER_HEAT_PUMP', 'GEOTHERMAL_HEAT_PUMP', 'AIR_AIR_HEAT_PUMP']);
const FOSSIL = new Set(['GAS', 'FUEL_OIL', 'PROPANE']);
const BOILERS = new Set(['CONDENSING_BOILER', 'NON_CONDENSING_BOILER', 'PELLET_BOILER', 'HYBRID_HEAT_PUMP']);

const HERITAGE = PLANNER_DATA.heritage;
/** Rule HERITAGE_FACADE: a protected facade or townscape, or a listed building (the request's heritage status). */
const facadeProtected = (v: Partial<PropertyDescription>) =>
  v.heritage_status !== undefined && (HERITAGE.facade_protected_statuses as readonly string[]).includes(v.heritage_status);
/** Rule HERITAGE_ROOF_LINE: a protected townscape or listed building keeps its roof line and what is seen from the street. */
const roofLineProtected = (v: Partial<PropertyDescription>) =>
  v.heritage_status !== undefined && (HERITAGE.roof_line_protected_statuses as readonly string[]).includes(v.heritage_status);
/** Rule STONE_FACADE: natural stone is insulated from inside or not at all. */
const stoneFacade = (v: Partial<PropertyDescription>) =>
  v.facade_material !== undefined && (HERITAGE.no_exterior_insulation_materials as readonly string[]).includes(v.facade_material);
const heritageWords = (v: Partial<PropertyDescription>) => (v.heritage_status ?? 'NONE').toLowerCase().replaceAll('_', ' ');
/** The permit a protected home's works need in its region (planner.json `heritage.permits`). */
export const permitFor = (region: Region) => HERITAGE.permits[region];

/** The variants among `types` this home can physically take (the catalogue's `applies_if`). */
const takes = (types: readonly string[], view: Partial<PropertyDescription>) => types.filter((t) => appliesTo(getNode(t), view));

const keep = (reason: string): ElementDecision => ({ omit: { code: 'KEPT', reason } });
const good = (reason: string): ElementDecision => ({ omit: { code: 'ALREADY_GOOD', reason } });
const absent = (reason: string): ElementDecision => ({ omit: { code: 'NOT_IN_THIS_HOME', reason } });

const roof: ElementRule = {
  element: 'ROOF',
  phase: 'ROOF',
  decide({ view, base, region }) {
    if (!base.geometry.exposed.roof)
      return absent(
        "roof: the home has no roof of its own (a flat under other homes, or its position is unknown): the roof is the building's, a decision of the co-owners.",
      );
    const kind = view.roof_type ?? 'INCLINED';
    const inclinedBare = kind !== 'FLAT' && !insulated(view.inclined_roof_insulation_type);
    const flatBare = kind !== 'INCLINED' && !insulated(view.flat_roof_insulation_type);
    if (!inclinedBare && !flatBare) return good('roof: already insulated.');
    if (inclinedBare) {
      // An attic nobody lives in: its floor is insulated (a fraction of the cost of the slopes).
      const attic = takes(['ATTIC_FLOOR_INSULATION'], view);
      // HERITAGE_ROOF_LINE: no insulation on top of the rafters (it raises the roof seen from the street).
      const slopes = roofLineProtected(view)
        ? ['INCLINED_ROOF_INSULATION_INSIDE']
        : ['INCLINED_ROOF_INSULATION_INSIDE', 'INCLINED_ROOF_INSULATION_OUTSIDE'];
      const variants = attic.length ? attic : takes(slopes, view);
      const heritage =
        roofLineProtected(view) && !attic.length
          ? {
              permit: permitFor(region),
              reason: `Rule HERITAGE_ROOF_LINE: the roof is insulated from inside, between and under the rafters, so the roof line of this ${heritageWords(view)} home stays as it is.`,
            }
          : {};
      return flatBare
        ? {
            variants,
            ...heritage,
            note: {
              code: 'NOT_PRICED',
              reason: 'roof: the flat part of a mixed roof is left for a second roof item (one roof insulation per plan).',
            },
          }
        : { variants, ...heritage };
    }
    // A flat roof is insulated on top (warm roof), with its new waterproofing.
    return { variants: takes(['FLAT_ROOF_INSULATION'], view) };
  },
};

const walls: ElementRule = {
  element: 'WALLS',
  phase: 'WALLS_AND_WINDOWS',
  decide({ view, region }) {
    if (insulated(view.outer_wall_insulation_type)) return good('walls: already insulated.');
    if (view.has_cavity_wall_insulation === true) {
      // TOP_UP_LIGHT_INSULATION: a partly filled cavity (LIGHT) is below the standard; a layer goes on top of it where it pays.
      if (view.outer_wall_insulation_type !== 'LIGHT') return good('walls: the cavity is already filled.');
      const inside = facadeProtected(view) || stoneFacade(view) || region === 'BRUSSELS';
      return {
        variants: [inside ? 'INTERIOR_WALL_INSULATION' : 'EXTERIOR_WALL_INSULATION'],
        topUp: 'walls: the partly filled cavity (LIGHT)',
        reason: `Rule TOP_UP_LIGHT_INSULATION: the cavity is only partly filled (LIGHT), below today's standard, so the wall gets an insulation layer ${inside ? 'inside' : 'outside'} on top of the fill.`,
        ...(facadeProtected(view) ? { permit: permitFor(region) } : {}),
      };
    }
    // An empty cavity of 5 cm or more is filled: a tenth of the cost of insulating the wall from outside.
    const fill = takes(['CAVITY_WALL_INSULATION'], view);
    if (fill.length) return { variants: fill };
    // HERITAGE_FACADE and STONE_FACADE: inside insulation, never outside.
    if (facadeProtected(view) || stoneFacade(view)) {
      const why = facadeProtected(view)
        ? `the facade is protected (${heritageWords(view)})`
        : 'the facade is natural stone, which exterior insulation would hide and trap moisture behind';
      return {
        variants: ['INTERIOR_WALL_INSULATION'],
        ...(facadeProtected(view) ? { permit: permitFor(region) } : {}),
        reason: `Rule ${facadeProtected(view) ? 'HERITAGE_FACADE' : 'STONE_FACADE'}: the walls are insulated from inside with a vapour-open system (wood fibre or calcium silicate), because ${why}.`,
        note: {
          code: 'PERMIT',
          reason: `walls: interior insulation, never exterior: ${why}${facadeProtected(view) ? `; the works need ${permitFor(region)}` : ''}.`,
        },
      };
    }
    if (region === 'BRUSSELS') {
      return {
        variants: ['INTERIOR_WALL_INSULATION'],
        note: {
          code: 'PERMIT',
          reason:
            'walls: interior insulation; exterior insulation of a Brussels street facade needs a planning permit that is rarely granted.',
        },
      };
    }
    return { variants: ['EXTERIOR_WALL_INSULATION'] };
  },
};

const windows: ElementRule = {
  element: 'WINDOWS',
  phase: 'WALLS_AND_WINDOWS',
  decide({ view, region }) {
    const glazing = view.window_glazing_type;
    if (glazing && (STANDARDS.glazing_good_enough as readonly string[]).includes(glazing))
      return good('windows: already high-efficiency glazing.');
    if (facadeProtected(view)) {
      // HERITAGE_FACADE: wooden frames of the facade's profile; new glass alone where the frames are sound.
      const variants = ['WINDOW_REPLACEMENT_WOOD_HR'];
      if (view.has_renewed_window_frames === true) variants.push('GLAZING_REPLACEMENT_HR');
      return {
        variants,
        permit: permitFor(region),
        reason: `Rule HERITAGE_FACADE: the facade is protected (${heritageWords(view)}), so the windows keep wooden frames of the original profile (sound frames only get new glass); no PVC or aluminium.`,
      };
    }
    // New frames and HR++ glass; glass alone only where the frames were already renewed.
    const variants = ['WINDOW_REPLACEMENT_PVC_HR', 'WINDOW_REPLACEMENT_WOOD_HR', 'WINDOW_REPLACEMENT_ALUMINIUM_HR'];
    if (view.has_renewed_window_frames === true) variants.push('GLAZING_REPLACEMENT_HR');
    return { variants };
  },
};

/** The floor fields whose presence says the client described the floor (and so what it stands over). */
const FLOOR_FIELDS = [
  'basement_type',
  'solid_ground_floor_insulation_type',
  'floor_above_basement_insulation_type',
  'basement_ceiling_surface',
  'basement_ceiling_height',
] as const;

/** What an undescribed house floor is taken to stand over for the works (planner.json `floor_access`), or null. */
function undescribedFloorOver(stated: Partial<PropertyDescription>, country: 'BE' | 'NL'): 'CRAWL_SPACE' | null {
  if (isFlat(stated)) return null;
  const described = FLOOR_FIELDS.some((f) => stated[f] !== undefined && stated[f] !== 'UNSPECIFIED');
  return described ? null : PLANNER_DATA.floor_access.undescribed_house_floor_over[country];
}

const floor: ElementRule = {
  element: 'FLOOR',
  phase: 'FLOOR',
  decide({ view, base, stated }) {
    if (!base.geometry.exposed.floor) return absent('floor: the home has no floor on the ground or above a basement of its own.');
    const overVoid = view.basement_type !== 'NONE';
    const level = overVoid ? view.floor_above_basement_insulation_type : view.solid_ground_floor_insulation_type;
    if (insulated(level)) return good('floor: already insulated.');
    const FLOOR_VARIANTS = ['BASEMENT_CEILING_INSULATION', 'CRAWL_SPACE_FLOOR_INSULATION', 'SOLID_FLOOR_INSULATION'];
    const over = undescribedFloorOver(stated, base.country);
    if (over) {
      // The typology's slab stands for the model; the works go where such a house's floor is reached from.
      const facts = { basement_type: over };
      return {
        variants: takes(FLOOR_VARIANTS, { ...view, ...facts }),
        assume: {
          facts,
          assumption: `The floor was not described: it is taken to stand over a crawl space, as Dutch houses usually do, and insulated from below; to be checked on site.`,
        },
      };
    }
    const variants = takes(FLOOR_VARIANTS, view);
    if (variants.length === 0)
      return absent('floor: no way to reach it was described (no basement or crawl space, no floor on the ground).');
    return { variants };
  },
};

const ventilation: ElementRule = {
  element: 'VENTILATION',
  phase: 'VENTILATION',
  decide({ view }) {
    const type = view.ventilation_type;
    if (type && (STANDARDS.ventilation_good_enough as readonly string[]).includes(type))
      return good(`ventilation: system ${type.slice(-1)} already in place.`);
    // System C is the adequate one; D needs a measured airtight envelope (a blower-door test) to pay off.
    const variants = ['VENTILATION_SYSTEM_C'];
    if (view.air_tightness_v50 !== undefined && view.air_tightness_v50 <= 6) variants.push('VENTILATION_SYSTEM_D');
    return { variants };
  },
};

const heatGenerator: ElementRule = {
  element: 'HEAT_GENERATOR',
  phase: 'HEAT_GENERATOR',
  decide({ view, region }) {
    const type = view.heating_type;
    const device = view.heating_device;
    const young =
      view.installation_age !== undefined && (STANDARDS.heat_pump_kept_ages as readonly string[]).includes(view.installation_age);
    if (device && FULL_HEAT_PUMPS.has(device)) {
      return keep(
        young
          ? 'heat generator: the heat pump is kept (under ten years old).'
          : 'heat generator: the heat pump is kept; it is replaced by a new one at the end of its life.',
      );
    }
    if (device === 'HYBRID_HEAT_PUMP' && young)
      return keep(
        'heat generator: the hybrid heat pump is kept (under ten years old); a full heat pump replaces it at the end of its life.',
      );
    if (type === 'PELLET_FUEL' || type === 'WOOD')
      return keep('heat generator: the biomass boiler or stove is kept (no fossil fuel); no new biomass appliance is planned.');
    if (type === 'DISTRICT_HEATING') return keep('heat generator: the home stays on its heat network.');
    if (type === 'ELECTRIC' || device === 'DIRECT_ELECTRIC' || device === 'DIRECT_ACCUMULATION') {
      // No water circuit and no gas: an air-to-air heat pump brings its own indoor units; never a gas appliance.
      return { variants: ['HEAT_PUMP_AIR_AIR'] };
    }
    if (type === 'HEAT_PUMP' && device !== 'HYBRID_HEAT_PUMP') return keep('heat generator: the heat pump is kept.');
    // Gas, oil, propane, none or an old hybrid: a full heat pump once the envelope is ready.
    if (stateOrderBlocks('HEAT_PUMP_AIR_WATER', view).length === 0)
      return {
        variants: ['HEAT_PUMP_AIR_WATER', 'HEAT_PUMP_GEOTHERMAL'],
        ...(roofLineProtected(view)
          ? {
              permit: permitFor(region),
              reason:
                'Rule HERITAGE_ROOF_LINE: the outdoor unit goes where it is not seen from the street (a back garden or flat roof behind the facade).',
            }
          : {}),
      };
    if (type === 'GAS') {
      return {
        variants: ['HEAT_PUMP_HYBRID'],
        note: {
          code: 'NOT_IN_THIS_HOME',
          reason:
            'heat generator: a hybrid heat pump as an interim; the envelope cannot be brought to the standard a full heat pump needs in this plan.',
        },
      };
    }
    return {
      variants: ['HEAT_PUMP_AIR_WATER'],
      note: {
        code: 'NOT_IN_THIS_HOME',
        reason:
          'heat generator: a full heat pump although the envelope stays partly bare (no gas for a hybrid): it runs at a higher flow temperature.',
      },
    };
  },
};

const emitters: ElementRule = {
  element: 'HEAT_EMITTERS',
  phase: 'HEAT_GENERATOR',
  follows: 'HEAT_GENERATOR',
  decide({ view, original, planned, base, current }) {
    const newPump = planned.some((t) => ['HEAT_PUMP_AIR_WATER', 'HEAT_PUMP_GEOTHERMAL', 'HEAT_PUMP_HYBRID'].includes(t));
    if (!newPump || !view.heating_device || !WATER_HEAT_PUMPS.has(view.heating_device)) return { omit: null };
    // Not described: a home heated by a boiler has radiators.
    const emitters = view.heat_emitter_type ?? (original.heating_device && BOILERS.has(original.heating_device) ? 'RADIATORS' : undefined);
    if (emitters !== 'RADIATORS') return good('heat emitters: the existing ones suit a heat pump.');
    if ((original.year_built ?? 0) >= PLANNER_DATA.emitters.radiators_built_before)
      return good('heat emitters: radiators of a home this recent suit a heat pump once it is insulated.');
    // RADIATOR_CHECK (EN 442): old radiators at a heat pump's lower water temperature still give a share of their output.
    const { exponent, design_mean_water_c, heat_pump_mean_water_c, room_c } = PLANNER_DATA.emitters.radiator_check;
    const share = ((heat_pump_mean_water_c - room_c) / (design_mean_water_c - room_c)) ** exponent;
    if (current && current.design_heat_load_kw <= share * base.design_heat_load_kw) {
      return good(
        `heat emitters: radiator check (EN 442): insulated, the home needs ${current.design_heat_load_kw.toFixed(1)} kW on the design day against ${base.design_heat_load_kw.toFixed(1)} kW today, within the ${Math.round(share * 100)}% the existing radiators still give at ${heat_pump_mean_water_c} C: they stay, after a check and hydraulic balancing.`,
      );
    }
    return {
      variants: ['LOW_TEMPERATURE_RADIATORS_WHOLE_HOME'],
      reason: `Rule RADIATOR_CHECK (EN 442): at a heat pump's ${heat_pump_mean_water_c} C the existing radiators give about ${Math.round(share * 100)}% of their rated output, less than the insulated home needs on the design day, so low-temperature radiators replace those that fall short.`,
    };
  },
};

const oilTank: ElementRule = {
  element: 'OIL_TANK',
  phase: 'HEAT_GENERATOR',
  follows: 'HEAT_GENERATOR',
  decide({ view, original }) {
    if (original.heating_type !== 'FUEL_OIL' || view.heating_type === 'FUEL_OIL') return { omit: null };
    return { variants: ['OIL_TANK_REMOVAL'] };
  },
};

const hotWater: ElementRule = {
  element: 'HOT_WATER',
  phase: 'HOT_WATER',
  decide({ view }) {
    const device = view.sanitary_heating_device;
    if (view.has_solar_boiler === true || device === 'HEAT_PUMP_BOILER')
      return good('hot water: already made by a heat-pump or solar water heater.');
    const generator = view.heating_device;
    if (
      (device === 'NOT_SEPARATED' || device === undefined) &&
      generator &&
      WATER_HEAT_PUMPS.has(generator) &&
      !FOSSIL.has(view.heating_type ?? '')
    ) {
      return good('hot water: made by the heat pump.');
    }
    if ((device === 'NOT_SEPARATED' || device === undefined) && generator === 'HYBRID_HEAT_PUMP') {
      return keep("hot water: made by the hybrid's boiler until a full heat pump replaces it.");
    }
    if (
      (device === 'NOT_SEPARATED' || device === undefined) &&
      (view.heating_type === 'PELLET_FUEL' || view.heating_type === 'WOOD' || view.heating_type === 'DISTRICT_HEATING')
    ) {
      return keep('hot water: made by the kept heat generator.');
    }
    return { variants: ['HEAT_PUMP_BOILER'] };
  },
};

const solar: ElementRule = {
  element: 'SOLAR_PANELS',
  phase: 'SOLAR_PANELS',
  decide({ view, base, region }) {
    if (view.has_solar_panels === true || (view.solar_panels_kwp ?? 0) > 0)
      return keep('solar panels: the home has them; they are not bought again.');
    if (isFlat(view) || !base.geometry.exposed.roof)
      return absent('solar panels: a flat has no roof of its own; panels on the building are a decision of the co-owners.');
    if (roofLineProtected(view))
      return {
        variants: ['SOLAR_PANELS'],
        permit: permitFor(region),
        reason: `Rule HERITAGE_ROOF_LINE: panels only on roof slopes not seen from the street (taken as ${Math.round(HERITAGE.pv_roof_share_out_of_sight * 100)}% of the usable roof), in a black frame, and only with the permit.`,
        quantityShare: HERITAGE.pv_roof_share_out_of_sight,
      };
    return { variants: ['SOLAR_PANELS'] };
  },
};

/** In the advisor's order; elements of one phase are ordered by the largest EPC gain (docs/http-contract.md (a)). */
export const ELEMENT_RULES: readonly ElementRule[] = [
  roof,
  walls,
  windows,
  floor,
  ventilation,
  heatGenerator,
  emitters,
  oilTank,
  hotWater,
  solar,
];
export const PHASES: readonly PlanPhase[] = [
  'ROOF',
  'WALLS_AND_WINDOWS',
  'FLOOR',
  'VENTILATION',
  'HEAT_GENERATOR',
  'HOT_WATER',
  'SOLAR_PANELS',
];

/** Why the variant is the adequate one for this home (the advisor's rule it follows), where there is more to say than its price. */
export const VARIANT_REASON: Partial<Record<string, string>> = {
  CAVITY_WALL_INSULATION:
    'The empty cavity of 5 cm or more is filled: about a tenth of the cost per m2 of insulating the wall from outside.',
  INTERIOR_WALL_INSULATION:
    'The walls are insulated from inside: insulating a Brussels street facade from outside needs a planning permit that is rarely granted.',
  EXTERIOR_WALL_INSULATION:
    'A solid wall is insulated from outside, which avoids the thermal bridges and condensation risk of inside insulation.',
  ATTIC_FLOOR_INSULATION: 'Nobody lives in the attic, so its floor is insulated instead of the roof slopes, at a fraction of the cost.',
  FLAT_ROOF_INSULATION: 'A flat roof is insulated on top, with its new waterproofing (a warm roof).',
  HEAT_PUMP_HYBRID:
    'A hybrid heat pump as an interim: the envelope cannot be brought to what a full heat pump needs in this plan; its boiler covers the coldest days.',
  HEAT_PUMP_AIR_AIR:
    'The home has no water circuit and no gas: an air-to-air heat pump brings its own indoor units; no gas appliance is planned in an electric home.',
  VENTILATION_SYSTEM_C:
    'Mechanical extract ventilation (system C) is the adequate system; heat recovery (D) pays off only in a measured airtight home.',
};

/** Why an element's step comes where it does, when it is not its phase's reason. */
export const ELEMENT_REASON: Partial<Record<PlanElement, string>> = {
  HEAT_EMITTERS: 'The radiators are changed with the heat pump they serve.',
  OIL_TANK: 'The oil tank goes once the heat pump has replaced the oil boiler.',
};

/** Why the step's phase comes where it does, in a homeowner's words. */
export const PHASE_REASON: Record<PlanPhase, string> = {
  ROOF: 'The roof comes first: most heat escapes upwards, and any later solar panels need the roof finished.',
  WALLS_AND_WINDOWS:
    'Walls and windows are done together after the roof: they share the scaffolding and the airtight joint between frame and wall.',
  FLOOR: 'The floor follows the walls and windows, completing the insulated envelope.',
  VENTILATION: 'With new windows and insulation the home is airtight, so fresh air must come from a ventilation system.',
  HEAT_GENERATOR: 'The heating comes after the envelope, so the installer sizes it on the insulated home, which needs a smaller heat pump.',
  HOT_WATER: 'Hot water follows the heating decision.',
  SOLAR_PANELS: "Solar panels come last, after any roof work and once the heating is decided, sized on the home's new electricity use.",
};
