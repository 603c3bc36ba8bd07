import type { HeatEmitterType, HeatingDevice, InsulationLevel, PropertyDescription } from '@renopath/contracts';
import { DATA, measureFigure } from './data.ts';
import type { CatalogueNode, Effect, GrantCategory, Predicate, QuantityRule, Requirement, Scope, Unit, VatRuleId } from './types.ts';
import specificationsJson from '../data/specifications.json' with { type: 'json' };

/**
 * The renovation component tree (docs/domain.md, The catalogue). Structure, effects and rules live here; every figure
 * (price, rate, grant amount) lives in data/. Children inherit unit, quantity rule, grant category,
 * VAT rules, exclusive group and requirements from their parent unless they set their own.
 */
interface Def {
  id: string;
  name: string;
  nl: string;
  fr: string;
  unit?: Unit;
  q?: QuantityRule;
  cat?: GrantCategory;
  vat?: { BE: VatRuleId; NL: VatRuleId };
  effect?: Effect;
  req?: Requirement[];
  excl?: string;
  structural?: boolean;
  planner?: boolean;
  children?: Def[];
}

const RENOVATION = { BE: 'BE_RENOVATION', NL: 'NL_STANDARD' } as const;
const INSULATION = { BE: 'BE_RENOVATION', NL: 'NL_INSULATION' } as const;
const HEAT_PUMP = { BE: 'BE_HEAT_PUMP', NL: 'NL_STANDARD' } as const;
const FOSSIL = { BE: 'BE_FOSSIL_HEATING', NL: 'NL_STANDARD' } as const;
const DISTRIBUTION = { BE: 'BE_HEATING_DISTRIBUTION', NL: 'NL_STANDARD' } as const;
const SERVICE = { BE: 'BE_SERVICE', NL: 'NL_STANDARD' } as const;

// Predicates reused by several nodes.
// MIXED: the home has both an inclined and a flat part, so works on either apply.
const inclinedRoof: Predicate = { field: 'roof_type', op: 'in', value: ['INCLINED', 'MIXED'] };
const flatRoof: Predicate = { field: 'roof_type', op: 'in', value: ['FLAT', 'MIXED'] };
/** A basement (full or partial; UNSPECIFIED may be one) whose ceiling is high enough to insulate from below. */
const basementCeilingReachable: Predicate = {
  all: [
    { field: 'basement_type', op: 'in', value: ['FULL', 'PARTIAL', 'UNSPECIFIED'] },
    { field: 'basement_ceiling_height', op: 'neq', value: 'LOWER_THAN_120_CM' },
  ],
};
/** A crawl space, or a basement too low to stand in: insulated from below as a crawl space is. */
const lowVoidUnderFloor: Predicate = {
  any: [
    { field: 'basement_type', op: 'in', value: ['CRAWL_SPACE', 'UNSPECIFIED'] },
    {
      all: [
        { field: 'basement_type', op: 'in', value: ['FULL', 'PARTIAL'] },
        { field: 'basement_ceiling_height', op: 'eq', value: 'LOWER_THAN_120_CM', unknown: 'fail' },
      ],
    },
  ],
};

type InsulationField =
  | 'outer_wall_insulation_type'
  | 'inclined_roof_insulation_type'
  | 'flat_roof_insulation_type'
  | 'floor_above_basement_insulation_type'
  | 'solid_ground_floor_insulation_type';
const insulate = (field: InsulationField, level: InsulationLevel): Effect => ({
  patch: { [field]: level } as Partial<PropertyDescription>,
});
/** Glass only: the old frames stay, so `has_renewed_window_frames` is left as it was. */
const glazing = (type: 'HR' | 'TRIPLE_GLAZING'): Effect => ({ patch: { window_glazing_type: type } });
/** New windows: frames and glass, so the model credits the whole window, not glass in an old frame. */
const newWindows = (type: 'HR' | 'TRIPLE_GLAZING'): Effect => ({
  patch: { window_glazing_type: type, has_renewed_window_frames: true },
});
/** The kW bands air-to-water heat pumps are sold and priced in, one list for sizing and pricing. */
const AIR_WATER_BANDS: readonly number[] = specificationsJson.heat_pump_kw_bands;

/**
 * Priced by power: the heat pumps' children with one leaf per kW band (specifications.json heat_pump_kw_bands)
 * after the unsized air-to-water one, so a plan's heat pump sized on the insulated home is priced at its band and
 * a renovation made of the plan prices the same leaf.
 */
function withAirWaterBands(children: Def[]): Def[] {
  return children.flatMap((def) =>
    def.id === 'HEAT_PUMP_AIR_WATER'
      ? [
          def,
          ...AIR_WATER_BANDS.map((kw) => ({
            id: `HEAT_PUMP_AIR_WATER_${kw}KW`,
            name: `Air-to-water heat pump, ${kw} kW`,
            nl: `Lucht-waterwarmtepomp, ${kw} kW`,
            fr: `Pompe à chaleur air-eau, ${kw} kW`,
            planner: true,
            effect: heatPump('AIR_WATER_HEAT_PUMP'),
          })),
        ]
      : [def],
  );
}

/** A heat pump sets the emitters only when it brings its own (air-air indoor units); water-based ones keep the existing emitters. */
const heatPump = (device: HeatingDevice, emitters?: HeatEmitterType): Effect => ({
  patch: {
    heating_type: 'HEAT_PUMP',
    heating_device: device,
    installation_age: 'ZERO_TO_FIVE_YEARS_OLD',
    ...(emitters ? { heat_emitter_type: emitters } : {}),
  },
  add_eco_facilities: ['HEAT_PUMP'],
});

const ROOTS: Record<Scope, Def[]> = {
  general: [
    {
      id: 'OUTER_WALL_INSULATION',
      name: 'Outer wall insulation',
      nl: 'Buitenmuurisolatie',
      fr: 'Isolation des murs extérieurs',
      unit: 'm2',
      q: 'facade_net_surface',
      cat: 'OUTER_WALLS',
      vat: INSULATION,
      children: [
        {
          id: 'CAVITY_WALL_INSULATION',
          name: 'Cavity wall insulation (injection)',
          nl: 'Spouwmuurisolatie',
          fr: 'Isolation de la coulisse',
          planner: true,
          // A filled cavity is its own state (U ~0.5), not MODERATE wall insulation (U ~0.3): the model computes it.
          effect: { patch: { has_cavity_wall_insulation: true } },
          req: [
            {
              applies_if: {
                all: [
                  { field: 'has_cavity_wall', op: 'eq', value: true, unknown: 'fail' },
                  { field: 'cavity_wall_width', op: 'eq', value: 'EQUAL_OR_MORE_THAN_5_CM', unknown: 'fail' },
                  { field: 'has_cavity_wall_insulation', op: 'neq', value: true },
                ],
              },
              reason: 'Cavity fill needs an empty cavity of at least 5 cm.',
            },
          ],
        },
        {
          id: 'EXTERIOR_WALL_INSULATION',
          name: 'Exterior wall insulation (ETICS or cladding)',
          nl: 'Gevelisolatie langs buiten',
          fr: 'Isolation des façades par l\u2019extérieur',
          planner: true,
          effect: insulate('outer_wall_insulation_type', 'STRONG'),
        },
        {
          id: 'INTERIOR_WALL_INSULATION',
          name: 'Interior wall insulation',
          nl: 'Muurisolatie langs binnen',
          fr: 'Isolation des murs par l\u2019intérieur',
          planner: true,
          effect: insulate('outer_wall_insulation_type', 'MODERATE'),
        },
      ],
    },
    {
      id: 'WINDOWS',
      name: 'Windows and doors',
      nl: 'Ramen en deuren',
      fr: 'Fenêtres et portes',
      unit: 'm2',
      q: 'window_surface',
      cat: 'WINDOWS_AND_DOORS',
      vat: INSULATION,
      excl: 'WINDOWS',
      children: [
        {
          id: 'GLAZING_REPLACEMENT',
          name: 'Glazing replacement (keep frames)',
          nl: 'Vervangen beglazing',
          fr: 'Remplacement du vitrage',
          children: [
            {
              id: 'GLAZING_REPLACEMENT_HR',
              name: 'High-efficiency double glazing',
              nl: 'Hoogrendementsglas',
              fr: 'Vitrage haut rendement',
              planner: true,
              effect: glazing('HR'),
            },
            {
              id: 'GLAZING_REPLACEMENT_TRIPLE',
              name: 'Triple glazing',
              nl: 'Driedubbel glas',
              fr: 'Triple vitrage',
              effect: glazing('TRIPLE_GLAZING'),
            },
          ],
        },
        {
          id: 'WINDOW_REPLACEMENT',
          name: 'Window replacement (frame and glazing)',
          nl: 'Vervangen ramen',
          fr: 'Remplacement des fenêtres',
          children: [
            {
              id: 'WINDOW_REPLACEMENT_PVC',
              name: 'PVC frames',
              nl: 'PVC-ramen',
              fr: 'Châssis PVC',
              children: [
                {
                  id: 'WINDOW_REPLACEMENT_PVC_HR',
                  name: 'PVC frames, HR++ glazing',
                  nl: 'PVC-ramen met hoogrendementsglas',
                  fr: 'Châssis PVC, vitrage haut rendement',
                  planner: true,
                  effect: newWindows('HR'),
                },
                {
                  id: 'WINDOW_REPLACEMENT_PVC_TRIPLE',
                  name: 'PVC frames, triple glazing',
                  nl: 'PVC-ramen met driedubbel glas',
                  fr: 'Châssis PVC, triple vitrage',
                  planner: true,
                  effect: newWindows('TRIPLE_GLAZING'),
                },
              ],
            },
            {
              id: 'WINDOW_REPLACEMENT_WOOD',
              name: 'Wooden frames',
              nl: 'Houten ramen',
              fr: 'Châssis bois',
              children: [
                {
                  id: 'WINDOW_REPLACEMENT_WOOD_HR',
                  name: 'Wooden frames, HR++ glazing',
                  nl: 'Houten ramen met hoogrendementsglas',
                  fr: 'Châssis bois, vitrage haut rendement',
                  effect: newWindows('HR'),
                },
                {
                  id: 'WINDOW_REPLACEMENT_WOOD_TRIPLE',
                  name: 'Wooden frames, triple glazing',
                  nl: 'Houten ramen met driedubbel glas',
                  fr: 'Châssis bois, triple vitrage',
                  effect: newWindows('TRIPLE_GLAZING'),
                },
              ],
            },
            {
              id: 'WINDOW_REPLACEMENT_ALUMINIUM',
              name: 'Aluminium frames',
              nl: 'Aluminium ramen',
              fr: 'Châssis aluminium',
              children: [
                {
                  id: 'WINDOW_REPLACEMENT_ALUMINIUM_HR',
                  name: 'Aluminium frames, HR++ glazing',
                  nl: 'Aluminium ramen met hoogrendementsglas',
                  fr: 'Châssis aluminium, vitrage haut rendement',
                  effect: newWindows('HR'),
                },
                {
                  id: 'WINDOW_REPLACEMENT_ALUMINIUM_TRIPLE',
                  name: 'Aluminium frames, triple glazing',
                  nl: 'Aluminium ramen met driedubbel glas',
                  fr: 'Châssis aluminium, triple vitrage',
                  effect: newWindows('TRIPLE_GLAZING'),
                },
              ],
            },
          ],
        },
        {
          id: 'EXTERIOR_DOOR_REPLACEMENT',
          name: 'Insulated exterior door',
          nl: 'Geïsoleerde buitendeur',
          fr: 'Porte extérieure isolée',
          unit: 'piece',
          q: 'count',
          vat: RENOVATION,
          excl: 'EXTERIOR_DOOR',
        },
      ],
    },
    {
      id: 'FLOOR_INSULATION',
      name: 'Floor insulation',
      nl: 'Vloerisolatie',
      fr: 'Isolation du sol',
      unit: 'm2',
      cat: 'FLOORS',
      vat: INSULATION,
      excl: 'FLOOR_INSULATION',
      children: [
        {
          id: 'BASEMENT_CEILING_INSULATION',
          name: 'Basement ceiling insulation',
          nl: 'Kelderplafondisolatie',
          fr: 'Isolation du plafond de cave',
          q: 'basement_ceiling_surface',
          planner: true,
          effect: insulate('floor_above_basement_insulation_type', 'MODERATE'),
          req: [
            {
              applies_if: basementCeilingReachable,
              reason: 'Needs a basement under the floor with room (120 cm or more) to work on its ceiling.',
            },
          ],
        },
        {
          id: 'CRAWL_SPACE_FLOOR_INSULATION',
          name: 'Floor insulation from the crawl space',
          nl: 'Vloerisolatie vanuit de kruipruimte',
          fr: 'Isolation du plancher par le vide sanitaire',
          q: 'basement_ceiling_surface',
          planner: true,
          effect: insulate('floor_above_basement_insulation_type', 'MODERATE'),
          req: [{ applies_if: lowVoidUnderFloor, reason: 'Needs an accessible crawl space.' }],
        },
        {
          id: 'CRAWL_SPACE_BOTTOM_INSULATION',
          name: 'Crawl-space bottom insulation',
          nl: 'Bodemisolatie kruipruimte',
          fr: 'Isolation du fond du vide sanitaire',
          q: 'basement_ceiling_surface',
          effect: insulate('floor_above_basement_insulation_type', 'LIGHT'),
          req: [{ applies_if: lowVoidUnderFloor, reason: 'Needs an accessible crawl space.' }],
        },
        {
          id: 'SOLID_FLOOR_INSULATION',
          name: 'Solid ground floor insulation (new floor build-up)',
          nl: 'Isolatie vloer op volle grond',
          fr: 'Isolation du sol sur terre-plein',
          q: 'ground_floor_surface',
          planner: true,
          effect: insulate('solid_ground_floor_insulation_type', 'STRONG'),
          req: [
            {
              applies_if: { field: 'basement_type', op: 'in', value: ['NONE', 'PARTIAL', 'UNSPECIFIED'] },
              reason: 'Only for a floor resting on the ground (no basement, or the part beside a partial one).',
            },
          ],
        },
      ],
    },
    {
      id: 'HEATING',
      name: 'Heating',
      nl: 'Verwarming',
      fr: 'Chauffage',
      unit: 'piece',
      q: 'count',
      cat: 'TECHNICAL_INSTALLATIONS',
      vat: HEAT_PUMP,
      excl: 'HEAT_GENERATOR',
      children: [
        {
          id: 'HEAT_PUMP',
          name: 'Heat pump',
          nl: 'Warmtepomp',
          fr: 'Pompe à chaleur',
          // One air-to-water leaf per kW band after the unsized one (withAirWaterBands).
          children: withAirWaterBands([
            {
              id: 'HEAT_PUMP_AIR_WATER',
              name: 'Air-to-water heat pump',
              nl: 'Lucht-waterwarmtepomp',
              fr: 'Pompe à chaleur air-eau',
              planner: true,
              effect: heatPump('AIR_WATER_HEAT_PUMP'),
            },
            {
              id: 'HEAT_PUMP_GEOTHERMAL',
              name: 'Ground-source heat pump',
              nl: 'Bodem-waterwarmtepomp (geothermisch)',
              fr: 'Pompe à chaleur géothermique',
              planner: true,
              effect: heatPump('GEOTHERMAL_HEAT_PUMP'),
            },
            {
              // Priced as the system it is (heat pump and a new condensing boiler); in Belgium the boiler part is at 21% VAT.
              id: 'HEAT_PUMP_HYBRID',
              name: 'Hybrid heat pump system (heat pump with a new condensing boiler)',
              nl: 'Hybride warmtepompsysteem (warmtepomp met nieuwe condensatieketel)',
              fr: 'Système de pompe à chaleur hybride (pompe à chaleur et nouvelle chaudière à condensation)',
              planner: true,
              vat: { BE: 'BE_HYBRID_HEAT_PUMP', NL: 'NL_STANDARD' },
              // A hybrid keeps the boiler's carrier (gas unless stated) for peak load.
              effect: {
                patch: { heating_device: 'HYBRID_HEAT_PUMP', installation_age: 'ZERO_TO_FIVE_YEARS_OLD' },
                defaults: { heating_type: 'GAS' },
                add_eco_facilities: ['HEAT_PUMP'],
              },
            },
            {
              id: 'HEAT_PUMP_AIR_AIR',
              name: 'Air-to-air heat pump',
              nl: 'Lucht-luchtwarmtepomp',
              fr: 'Pompe à chaleur air-air',
              planner: true,
              effect: heatPump('AIR_AIR_HEAT_PUMP', 'AIR'),
            },
          ]),
        },
        {
          // A client may add it, but the planner never proposes it: a new gas boiler locks in fossil heating for ~15 years.
          id: 'CONDENSING_BOILER',
          name: 'Gas condensing boiler',
          nl: 'Condensatieketel op gas',
          fr: 'Chaudière gaz à condensation',
          vat: FOSSIL,
          planner: false,
          effect: { patch: { heating_type: 'GAS', heating_device: 'CONDENSING_BOILER', installation_age: 'ZERO_TO_FIVE_YEARS_OLD' } },
          req: [
            {
              applies_if: { field: 'heating_type', op: 'in', value: ['GAS', 'PROPANE'] },
              reason: 'Only where the home already has a gas supply; no new gas connections are planned.',
            },
          ],
        },
        {
          // Leaving fuel oil: the tank is emptied, cleaned and removed (or filled) by a certified firm; no energy effect.
          id: 'OIL_TANK_REMOVAL',
          name: 'Oil tank cleaning and removal',
          nl: 'Mazouttank reinigen en verwijderen',
          fr: 'Nettoyage et enlèvement de la citerne à mazout',
          vat: RENOVATION,
          excl: 'OIL_TANK',
        },
        {
          // A client may add it; the planner never proposes biomass (air quality: the Dutch ISDE stopped funding it in 2020).
          id: 'PELLET_BOILER',
          name: 'Pellet boiler',
          nl: 'Pelletketel',
          fr: 'Chaudière à pellets',
          vat: RENOVATION,
          planner: false,
          effect: { patch: { heating_type: 'PELLET_FUEL', heating_device: 'PELLET_BOILER', installation_age: 'ZERO_TO_FIVE_YEARS_OLD' } },
        },
      ],
    },
    {
      id: 'HOT_WATER',
      name: 'Domestic hot water',
      nl: 'Sanitair warm water',
      fr: 'Eau chaude sanitaire',
      unit: 'piece',
      q: 'count',
      cat: 'TECHNICAL_INSTALLATIONS',
      vat: HEAT_PUMP,
      children: [
        {
          id: 'HEAT_PUMP_BOILER',
          name: 'Heat-pump water heater',
          nl: 'Warmtepompboiler',
          fr: 'Chauffe-eau thermodynamique',
          planner: true,
          excl: 'DHW_GENERATOR',
          effect: { patch: { sanitary_heating_device: 'HEAT_PUMP_BOILER' } },
        },
        {
          id: 'SOLAR_BOILER',
          name: 'Solar water heater',
          nl: 'Zonneboiler',
          fr: 'Chauffe-eau solaire',
          vat: { BE: 'BE_SOLAR', NL: 'NL_STANDARD' },
          planner: true,
          effect: { patch: { has_solar_boiler: true }, add_eco_facilities: ['SOLAR_BOILER'] },
          req: [
            { applies_if: { field: 'has_solar_boiler', op: 'neq', value: true }, reason: 'The home already has a solar water heater.' },
          ],
        },
      ],
    },
    {
      id: 'VENTILATION',
      name: 'Ventilation',
      nl: 'Ventilatie',
      fr: 'Ventilation',
      unit: 'piece',
      q: 'count',
      cat: 'TECHNICAL_INSTALLATIONS',
      vat: RENOVATION,
      excl: 'VENTILATION',
      children: [
        {
          id: 'VENTILATION_SYSTEM_C',
          name: 'Mechanical extract ventilation (system C)',
          nl: 'Ventilatiesysteem C',
          fr: 'Ventilation simple flux (système C)',
          planner: true,
          effect: { patch: { ventilation_type: 'SYSTEM_C' }, add_eco_facilities: ['VENTILATION_C'] },
        },
        {
          id: 'VENTILATION_SYSTEM_D',
          name: 'Balanced ventilation with heat recovery (system D)',
          nl: 'Ventilatiesysteem D met warmteterugwinning',
          fr: 'Ventilation double flux (système D)',
          planner: true,
          effect: { patch: { ventilation_type: 'SYSTEM_D' }, add_eco_facilities: ['VENTILATION_D'] },
        },
      ],
    },
    {
      id: 'AIRTIGHTNESS_IMPROVEMENT',
      name: 'Airtightness works with blower-door test',
      nl: 'Luchtdichtheidswerken met blowerdoortest',
      fr: 'Travaux d\u2019étanchéité à l\u2019air avec test d\u2019infiltrométrie',
      unit: 'lump_sum',
      q: 'lump_sum',
      cat: 'OTHER',
      vat: RENOVATION,
      planner: true,
      effect: { at_most: { air_tightness_v50: measureFigure('V50_AFTER_AIRTIGHTNESS_WORKS') } },
    },
    {
      id: 'HEAT_DISTRIBUTION',
      name: 'Heat emitters for the whole home',
      nl: 'Warmteafgifte voor de hele woning',
      fr: 'Émetteurs de chaleur pour tout le logement',
      unit: 'm2',
      q: 'habitable_space',
      cat: 'TECHNICAL_INSTALLATIONS',
      vat: DISTRIBUTION,
      excl: 'HEAT_EMITTERS',
      children: [
        {
          // Sold with a water-based heat pump as a separate item: the emitters set its flow temperature.
          id: 'LOW_TEMPERATURE_RADIATORS_WHOLE_HOME',
          name: 'Low-temperature radiators in every heated room',
          nl: 'Lagetemperatuurradiatoren in alle verwarmde ruimten',
          fr: 'Radiateurs basse température dans toutes les pièces chauffées',
          planner: true,
          effect: { patch: { heat_emitter_type: 'LOW_TEMPERATURE_RADIATORS' } },
        },
      ],
    },
    {
      id: 'SOLAR_PANELS',
      name: 'Solar panels (PV)',
      nl: 'Zonnepanelen',
      fr: 'Panneaux photovoltaïques',
      unit: 'kWp',
      q: 'pv_kwp_from_roof',
      cat: 'TECHNICAL_INSTALLATIONS',
      vat: { BE: 'BE_SOLAR', NL: 'NL_PV' },
      planner: true,
      effect: { add_kwp_from_quantity: true, add_eco_facilities: ['SOLAR_PANELS'] },
    },
    {
      id: 'HOME_BATTERY',
      name: 'Home battery',
      nl: 'Thuisbatterij',
      fr: 'Batterie domestique',
      unit: 'piece',
      q: 'count',
      cat: 'TECHNICAL_INSTALLATIONS',
      vat: RENOVATION,
      effect: { add_eco_facilities: ['HOME_BATTERY'] },
    },
    {
      id: 'ELECTRICITY',
      name: 'Electrical installation',
      nl: 'Elektrische installatie',
      fr: 'Installation électrique',
      cat: 'TECHNICAL_INSTALLATIONS',
      vat: RENOVATION,
      children: [
        {
          id: 'ELECTRICAL_REWIRING',
          name: 'Complete rewiring',
          nl: 'Volledige vernieuwing elektriciteit',
          fr: 'Rénovation complète de l\u2019électricité',
          unit: 'm2',
          q: 'habitable_space',
        },
        {
          id: 'EV_CHARGER',
          name: 'EV charger',
          nl: 'Laadpaal',
          fr: 'Borne de recharge',
          unit: 'piece',
          q: 'count',
          effect: { add_eco_facilities: ['EV_CHARGER'] },
        },
      ],
    },
    {
      id: 'RAINWATER_TANK',
      name: 'Rainwater tank',
      nl: 'Regenwaterput',
      fr: 'Citerne d\u2019eau de pluie',
      unit: 'piece',
      q: 'count',
      cat: 'OTHER',
      vat: RENOVATION,
      effect: { add_eco_facilities: ['RAINWATER_TANK'] },
    },
    {
      id: 'ASBESTOS_REMOVAL',
      name: 'Asbestos removal',
      nl: 'Asbestverwijdering',
      fr: 'Désamiantage',
      unit: 'm2',
      cat: 'ASBESTOS_REMOVAL',
      vat: RENOVATION,
      children: [
        {
          id: 'ASBESTOS_REMOVAL_ROOF',
          name: 'Asbestos-cement roof removal',
          nl: 'Verwijderen asbestcement dak',
          fr: 'Enlèvement de toiture en amiante-ciment',
          q: 'roof_surface',
        },
        {
          id: 'ASBESTOS_REMOVAL_FACADE',
          name: 'Asbestos facade cladding removal',
          nl: 'Verwijderen asbesthoudende gevelbekleding',
          fr: 'Enlèvement de bardage amianté',
          q: 'facade_net_surface',
        },
      ],
    },
  ],
  roof: [
    {
      id: 'ROOF_INSULATION',
      name: 'Roof insulation',
      nl: 'Dakisolatie',
      fr: 'Isolation de toiture',
      unit: 'm2',
      cat: 'ROOF',
      vat: INSULATION,
      excl: 'ROOF_INSULATION',
      children: [
        {
          id: 'INCLINED_ROOF_INSULATION_INSIDE',
          name: 'Pitched roof insulation from inside',
          nl: 'Hellend dak isoleren langs binnen',
          fr: 'Isolation de toiture inclinée par l\u2019intérieur',
          q: 'inclined_roof_surface',
          planner: true,
          effect: insulate('inclined_roof_insulation_type', 'STRONG'),
          req: [{ applies_if: inclinedRoof, reason: 'Only for a pitched roof.' }],
        },
        {
          id: 'INCLINED_ROOF_INSULATION_OUTSIDE',
          name: 'Pitched roof insulation from outside (sarking, new covering)',
          nl: 'Hellend dak isoleren langs buiten (sarking)',
          fr: 'Isolation de toiture inclinée par l\u2019extérieur (sarking)',
          q: 'inclined_roof_surface',
          planner: true,
          structural: true,
          effect: insulate('inclined_roof_insulation_type', 'STRONG'),
          req: [{ applies_if: inclinedRoof, reason: 'Only for a pitched roof.' }],
        },
        {
          id: 'FLAT_ROOF_INSULATION',
          name: 'Flat roof insulation (warm roof, new waterproofing)',
          nl: 'Plat dak isoleren (warm dak)',
          fr: 'Isolation de toiture plate (toiture chaude)',
          q: 'flat_roof_surface',
          planner: true,
          effect: insulate('flat_roof_insulation_type', 'STRONG'),
          req: [{ applies_if: flatRoof, reason: 'Only for a flat roof.' }],
        },
        {
          id: 'ATTIC_FLOOR_INSULATION',
          name: 'Attic floor insulation (unheated attic)',
          nl: 'Zoldervloerisolatie',
          fr: 'Isolation du plancher des combles',
          q: 'attic_floor_surface',
          planner: true,
          effect: insulate('inclined_roof_insulation_type', 'STRONG'),
          req: [
            {
              applies_if: { all: [inclinedRoof, { field: 'attic_usage', op: 'neq', value: 'LIVING_SPACE' }] },
              reason: 'Only under a pitched roof with an unheated attic (not lived in).',
            },
          ],
        },
      ],
    },
    {
      id: 'ROOF_COVERING',
      name: 'Roof covering',
      nl: 'Dakbedekking',
      fr: 'Couverture de toiture',
      unit: 'm2',
      cat: 'ROOF',
      vat: RENOVATION,
      excl: 'ROOF_COVERING',
      children: [
        {
          id: 'INCLINED_ROOF_COVERING',
          name: 'Pitched roof covering',
          nl: 'Hellende dakbedekking',
          fr: 'Couverture de toiture inclinée',
          q: 'inclined_roof_surface',
          req: [{ applies_if: inclinedRoof, reason: 'Only for a pitched roof.' }],
          children: [
            { id: 'ROOF_COVERING_TILES', name: 'Roof tiles with underlay', nl: 'Dakpannen met onderdak', fr: 'Tuiles avec sous-toiture' },
            {
              id: 'ROOF_COVERING_SLATES',
              name: 'Natural slates with underlay',
              nl: 'Natuurleien met onderdak',
              fr: 'Ardoises naturelles avec sous-toiture',
            },
          ],
        },
        {
          id: 'FLAT_ROOF_COVERING',
          name: 'Flat roof waterproofing',
          nl: 'Platte dakbedekking',
          fr: 'Étanchéité de toiture plate',
          q: 'flat_roof_surface',
          req: [{ applies_if: flatRoof, reason: 'Only for a flat roof.' }],
          children: [
            { id: 'FLAT_ROOF_COVERING_BITUMEN', name: 'Bitumen roofing', nl: 'Bitumineuze dakbedekking', fr: 'Membrane bitumineuse' },
            { id: 'FLAT_ROOF_COVERING_EPDM', name: 'EPDM roofing', nl: 'EPDM-dakbedekking', fr: 'Membrane EPDM' },
            {
              id: 'GREEN_ROOF',
              name: 'Extensive green roof',
              nl: 'Extensief groendak',
              fr: 'Toiture verte extensive',
              excl: 'GREEN_ROOF',
              effect: { add_eco_facilities: ['GREEN_ROOF'] },
            },
          ],
        },
      ],
    },
    {
      id: 'ROOF_DRAINAGE',
      name: 'Gutters and downpipes',
      nl: 'Dakgoten en afvoer',
      fr: 'Gouttières et descentes',
      unit: 'm',
      q: 'gutter_length',
      cat: 'ROOF',
      vat: RENOVATION,
      excl: 'GUTTER',
      children: [
        { id: 'BOX_GUTTER', name: 'Box gutter (zinc)', nl: 'Bakgoot (zink)', fr: 'Corniche (zinc)' },
        {
          id: 'HANGING_GUTTER',
          name: 'Hanging gutter',
          nl: 'Hanggoot',
          fr: 'Gouttière pendante',
          children: [
            { id: 'HANGING_GUTTER_PLASTIC', name: 'Hanging gutter, PVC', nl: 'Hanggoot in PVC', fr: 'Gouttière pendante en PVC' },
            {
              id: 'HANGING_GUTTER_METAL',
              name: 'Hanging gutter, zinc or aluminium',
              nl: 'Hanggoot in zink of aluminium',
              fr: 'Gouttière pendante en zinc ou aluminium',
            },
          ],
        },
      ],
    },
    {
      id: 'ROOF_WINDOWS',
      name: 'Roof windows',
      nl: 'Dakramen',
      fr: 'Fenêtres de toit',
      unit: 'piece',
      q: 'count',
      cat: 'ROOF',
      vat: RENOVATION,
      children: [
        {
          id: 'ROOF_WINDOW',
          name: 'Pitched roof window',
          nl: 'Dakvlakraam',
          fr: 'Fenêtre de toit',
          req: [{ applies_if: inclinedRoof, reason: 'Only for a pitched roof.' }],
        },
        {
          id: 'FLAT_ROOF_SKYLIGHT',
          name: 'Flat roof skylight',
          nl: 'Lichtkoepel',
          fr: 'Coupole de toit plat',
          req: [{ applies_if: flatRoof, reason: 'Only for a flat roof.' }],
        },
      ],
    },
    {
      id: 'ROOF_STRUCTURE',
      name: 'Roof structure renewal',
      nl: 'Vernieuwen dakstructuur',
      fr: 'Renouvellement de la charpente',
      unit: 'm2',
      q: 'roof_surface',
      cat: 'ROOF',
      vat: RENOVATION,
      structural: true,
    },
  ],
  room: [
    { id: 'KITCHEN', name: 'Kitchen', nl: 'Keuken', fr: 'Cuisine', unit: 'piece', q: 'count', cat: 'OTHER', vat: RENOVATION },
    {
      id: 'BATHROOM',
      name: 'Bathroom',
      nl: 'Badkamer',
      fr: 'Salle de bains',
      unit: 'piece',
      q: 'count',
      cat: 'TECHNICAL_INSTALLATIONS',
      vat: RENOVATION,
    },
    {
      id: 'FLOORING',
      name: 'Floor finishing',
      nl: 'Vloerafwerking',
      fr: 'Revêtement de sol',
      unit: 'm2',
      q: 'room_floor_surface',
      cat: 'OTHER',
      vat: RENOVATION,
      excl: 'FLOORING',
      children: [
        { id: 'FLOORING_LAMINATE', name: 'Laminate', nl: 'Laminaat', fr: 'Stratifié' },
        { id: 'FLOORING_PARQUET', name: 'Parquet', nl: 'Parket', fr: 'Parquet' },
        { id: 'FLOORING_TILES', name: 'Tiles', nl: 'Tegels', fr: 'Carrelage' },
      ],
    },
    {
      id: 'WALL_FINISHING',
      name: 'Wall finishing',
      nl: 'Muurafwerking',
      fr: 'Finition des murs',
      unit: 'm2',
      q: 'room_wall_surface',
      cat: 'OTHER',
      vat: RENOVATION,
      children: [
        { id: 'WALL_PLASTERING', name: 'Plastering', nl: 'Bepleistering', fr: 'Plafonnage' },
        { id: 'WALL_PAINTING', name: 'Painting', nl: 'Schilderwerk', fr: 'Peinture' },
      ],
    },
    {
      id: 'CEILING',
      name: 'Ceiling',
      nl: 'Plafond',
      fr: 'Plafond',
      unit: 'm2',
      q: 'room_floor_surface',
      cat: 'OTHER',
      vat: RENOVATION,
      excl: 'CEILING',
      children: [
        { id: 'CEILING_PLASTERING', name: 'Ceiling plastering', nl: 'Plafond bepleisteren', fr: 'Plafonnage du plafond' },
        { id: 'SUSPENDED_CEILING', name: 'Suspended ceiling', nl: 'Verlaagd plafond', fr: 'Faux plafond' },
      ],
    },
    {
      id: 'INTERIOR_DOORS',
      name: 'Interior doors',
      nl: 'Binnendeuren',
      fr: 'Portes intérieures',
      unit: 'piece',
      q: 'count',
      cat: 'OTHER',
      vat: RENOVATION,
    },
    {
      id: 'HEAT_EMITTERS',
      name: 'Heat emitters',
      nl: 'Warmteafgifte',
      fr: 'Émetteurs de chaleur',
      cat: 'TECHNICAL_INSTALLATIONS',
      vat: DISTRIBUTION,
      children: [
        {
          id: 'RADIATOR_REPLACEMENT',
          name: 'Low-temperature radiator',
          nl: 'Lagetemperatuurradiator',
          fr: 'Radiateur basse température',
          unit: 'piece',
          q: 'count',
        },
        {
          id: 'UNDERFLOOR_HEATING',
          name: 'Underfloor heating',
          nl: 'Vloerverwarming',
          fr: 'Chauffage par le sol',
          unit: 'm2',
          q: 'room_floor_surface',
        },
      ],
    },
    {
      id: 'INTERIOR_WALL_REMOVAL',
      name: 'Opening a load-bearing wall (steel beam)',
      nl: 'Dragende muur doorbreken (stalen balk)',
      fr: 'Ouverture d\u2019un mur porteur (poutrelle)',
      unit: 'piece',
      q: 'count',
      cat: 'OTHER',
      vat: RENOVATION,
      structural: true,
    },
  ],
  staircase: [
    {
      id: 'STAIRCASE_RENOVATION',
      name: 'Staircase renovation (treads, finish)',
      nl: 'Trap renoveren',
      fr: 'Rénovation d\u2019escalier',
      unit: 'piece',
      q: 'count',
      cat: 'OTHER',
      vat: RENOVATION,
    },
    {
      id: 'STAIRCASE_REPLACEMENT',
      name: 'Staircase replacement',
      nl: 'Trap vervangen',
      fr: 'Remplacement d\u2019escalier',
      unit: 'piece',
      q: 'count',
      cat: 'OTHER',
      vat: RENOVATION,
      structural: true,
      excl: 'STAIRCASE',
      children: [
        { id: 'STAIRCASE_REPLACEMENT_WOOD', name: 'Wooden staircase', nl: 'Houten trap', fr: 'Escalier en bois' },
        { id: 'STAIRCASE_REPLACEMENT_METAL', name: 'Steel staircase', nl: 'Stalen trap', fr: 'Escalier en acier' },
      ],
    },
    {
      id: 'RAILING',
      name: 'Railing',
      nl: 'Trapleuning en balustrade',
      fr: 'Garde-corps',
      unit: 'm',
      q: 'railing_length',
      cat: 'OTHER',
      vat: RENOVATION,
    },
  ],
  derived: [
    { id: 'SCAFFOLDING', name: 'Scaffolding', nl: 'Stelling', fr: 'Échafaudage', unit: 'm2', q: 'lump_sum', cat: 'OTHER', vat: RENOVATION },
    { id: 'ARCHITECT', name: 'Architect', nl: 'Architect', fr: 'Architecte', unit: 'lump_sum', q: 'lump_sum', cat: 'OTHER', vat: SERVICE },
    {
      id: 'SAFETY_COORDINATION',
      name: 'Safety coordinator',
      nl: 'Veiligheidscoördinator',
      fr: 'Coordinateur sécurité',
      unit: 'lump_sum',
      q: 'lump_sum',
      cat: 'OTHER',
      vat: SERVICE,
    },
    {
      id: 'DEMOLITION',
      name: 'Demolition and removal',
      nl: 'Afbraak',
      fr: 'Démolition',
      unit: 'lump_sum',
      q: 'lump_sum',
      cat: 'OTHER',
      vat: RENOVATION,
    },
    {
      id: 'WASTE_DISPOSAL',
      name: 'Waste container and disposal',
      nl: 'Afvalcontainer en afvoer',
      fr: 'Conteneur et évacuation des déchets',
      unit: 'piece',
      q: 'count',
      cat: 'OTHER',
      vat: RENOVATION,
    },
    {
      id: 'HOUSING_AUDIT',
      name: 'Housing audit (audit logement, Wallonia)',
      nl: 'Woningaudit (audit logement, Wallonië)',
      fr: 'Audit logement',
      unit: 'lump_sum',
      q: 'lump_sum',
      cat: 'OTHER',
      vat: SERVICE,
    },
    {
      id: 'ASBESTOS_INVENTORY',
      name: 'Asbestos inventory',
      nl: 'Asbestinventaris',
      fr: 'Inventaire amiante',
      unit: 'lump_sum',
      q: 'lump_sum',
      cat: 'OTHER',
      vat: SERVICE,
    },
  ],
};

function build(): Map<string, CatalogueNode> {
  const nodes = new Map<string, CatalogueNode>();
  const visit = (def: Def, scope: Scope, parent: CatalogueNode | null): void => {
    if (nodes.has(def.id)) throw new Error(`duplicate catalogue node ${def.id}`);
    const node: CatalogueNode = {
      renovation_component_type: def.id,
      scope,
      name: def.name,
      name_nl: def.nl,
      name_fr: def.fr,
      parent: parent?.renovation_component_type ?? null,
      unit: def.unit ?? parent?.unit ?? 'piece',
      children: (def.children ?? []).map((c) => c.id),
      quantity_rule: def.q ?? parent?.quantity_rule ?? 'count',
      grant_category: def.cat ?? parent?.grant_category ?? 'OTHER',
      vat: def.vat ?? parent?.vat ?? RENOVATION,
      effect: def.effect ?? null,
      requirements: [...(parent?.requirements ?? []), ...(def.req ?? [])],
      exclusive_group: def.excl ?? parent?.exclusive_group ?? null,
      structural: def.structural ?? parent?.structural ?? false,
      planner_measure: def.planner ?? false,
    };
    nodes.set(def.id, node);
    for (const child of def.children ?? []) visit(child, scope, node);
  };
  for (const [scope, roots] of Object.entries(ROOTS) as [Scope, Def[]][]) for (const root of roots) visit(root, scope, null);
  // Order prerequisites live in data/prerequisites.json, each with its reason and source.
  for (const row of DATA.prerequisites.rows) {
    for (const type of row.measures) {
      const node = nodes.get(type);
      if (!node) throw new Error(`prerequisites.json ${row.id} names unknown measure ${type}`);
      node.requirements.push({
        after_any: row.after_any,
        reason: row.reason,
        ...(row.after_unless ? { after_unless: row.after_unless } : {}),
      });
    }
  }
  return nodes;
}

/** Every node by its `renovation_component_type`, in tree order. */
export const NODES: ReadonlyMap<string, CatalogueNode> = build();
