import type { HeatingDevice, InsulationLevel, PropertyDescription } from '@renopath/contracts';
import type {
  CatalogueNode, Effect, GrantCategory, Predicate, QuantityRule, Requirement, Scope, Unit, VatRuleId,
} from './types.ts';

/**
 * The renovation component tree (DOMAIN.md 4). Structure, effects and rules live here; every figure
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
const inclinedRoof: Predicate = { field: 'roof_type', op: 'eq', value: 'INCLINED' };
const flatRoof: Predicate = { field: 'roof_type', op: 'eq', value: 'FLAT' };
const roofInsulated: Predicate = {
  any: [
    { field: 'inclined_roof_insulation_type', op: 'at_least_level', value: 'MODERATE', unknown: 'fail' },
    { field: 'flat_roof_insulation_type', op: 'at_least_level', value: 'MODERATE', unknown: 'fail' },
  ],
};
/** "Insulated enough for a heat pump": at least two of roof, walls, glazing, floor at a decent level. */
const envelopeReadyForHeatPump: Predicate = {
  at_least: 2,
  of: [
    roofInsulated,
    { field: 'outer_wall_insulation_type', op: 'at_least_level', value: 'MODERATE', unknown: 'fail' },
    { field: 'window_glazing_type', op: 'at_least_level', value: 'HR', unknown: 'fail' },
    {
      any: [
        { field: 'floor_above_basement_insulation_type', op: 'at_least_level', value: 'MODERATE', unknown: 'fail' },
        { field: 'solid_ground_floor_insulation_type', op: 'at_least_level', value: 'MODERATE', unknown: 'fail' },
      ],
    },
  ],
};
const ENVELOPE_MEASURES = [
  'CAVITY_WALL_INSULATION', 'EXTERIOR_WALL_INSULATION', 'INTERIOR_WALL_INSULATION',
  'INCLINED_ROOF_INSULATION_INSIDE', 'INCLINED_ROOF_INSULATION_OUTSIDE', 'FLAT_ROOF_INSULATION', 'ATTIC_FLOOR_INSULATION',
  'WINDOW_REPLACEMENT_PVC_HR', 'WINDOW_REPLACEMENT_PVC_TRIPLE', 'WINDOW_REPLACEMENT_WOOD_HR', 'WINDOW_REPLACEMENT_WOOD_TRIPLE',
  'WINDOW_REPLACEMENT_ALUMINIUM_HR', 'WINDOW_REPLACEMENT_ALUMINIUM_TRIPLE', 'GLAZING_REPLACEMENT_HR', 'GLAZING_REPLACEMENT_TRIPLE',
  'BASEMENT_CEILING_INSULATION', 'CRAWL_SPACE_FLOOR_INSULATION', 'SOLID_FLOOR_INSULATION',
];
/** Works that make the envelope airtight enough for balanced ventilation. */
const AIRTIGHTENING_MEASURES = [
  'AIRTIGHTNESS_IMPROVEMENT', 'EXTERIOR_WALL_INSULATION', 'INCLINED_ROOF_INSULATION_INSIDE', 'INCLINED_ROOF_INSULATION_OUTSIDE',
  'WINDOW_REPLACEMENT_PVC_HR', 'WINDOW_REPLACEMENT_PVC_TRIPLE', 'WINDOW_REPLACEMENT_WOOD_HR', 'WINDOW_REPLACEMENT_WOOD_TRIPLE',
  'WINDOW_REPLACEMENT_ALUMINIUM_HR', 'WINDOW_REPLACEMENT_ALUMINIUM_TRIPLE',
];
const HEAT_GENERATORS = [
  'HEAT_PUMP_AIR_WATER', 'HEAT_PUMP_GEOTHERMAL', 'HEAT_PUMP_HYBRID', 'HEAT_PUMP_AIR_AIR', 'CONDENSING_BOILER', 'PELLET_BOILER',
];

type InsulationField =
  | 'outer_wall_insulation_type' | 'inclined_roof_insulation_type' | 'flat_roof_insulation_type'
  | 'floor_above_basement_insulation_type' | 'solid_ground_floor_insulation_type';
const insulate = (field: InsulationField, level: InsulationLevel): Effect => ({
  patch: { [field]: level } as Partial<PropertyDescription>,
});
const glazing = (type: 'HR' | 'TRIPLE_GLAZING'): Effect => ({ patch: { window_glazing_type: type } });
const heatPump = (device: HeatingDevice): Effect => ({
  patch: { heating_type: 'ELECTRIC', heating_device: device, installation_age: 0 },
  add_eco_facilities: ['HEAT_PUMP'],
});

const ROOTS: Record<Scope, Def[]> = {
  general: [
    {
      id: 'OUTER_WALL_INSULATION', name: 'Outer wall insulation', nl: 'Buitenmuurisolatie', fr: 'Isolation des murs extérieurs',
      unit: 'm2', q: 'facade_net_surface', cat: 'OUTER_WALLS', vat: INSULATION,
      children: [
        {
          id: 'CAVITY_WALL_INSULATION', name: 'Cavity wall insulation (injection)', nl: 'Spouwmuurisolatie', fr: 'Isolation de la coulisse',
          planner: true,
          effect: { patch: { has_cavity_wall_insulation: true, outer_wall_insulation_type: 'MODERATE' } },
          req: [{
            applies_if: {
              all: [
                { field: 'has_cavity_wall', op: 'eq', value: true, unknown: 'fail' },
                { field: 'cavity_wall_width', op: 'gte', value: 5, unknown: 'fail' },
                { field: 'has_cavity_wall_insulation', op: 'neq', value: true },
              ],
            },
            reason: 'Cavity fill needs an empty cavity of at least 5 cm.',
          }],
        },
        {
          id: 'EXTERIOR_WALL_INSULATION', name: 'Exterior wall insulation (ETICS or cladding)', nl: 'Gevelisolatie langs buiten',
          fr: 'Isolation des façades par l\u2019extérieur', planner: true,
          effect: insulate('outer_wall_insulation_type', 'STRONG'),
        },
        {
          id: 'INTERIOR_WALL_INSULATION', name: 'Interior wall insulation', nl: 'Muurisolatie langs binnen',
          fr: 'Isolation des murs par l\u2019intérieur', planner: true,
          effect: insulate('outer_wall_insulation_type', 'MODERATE'),
        },
      ],
    },
    {
      id: 'WINDOWS', name: 'Windows and doors', nl: 'Ramen en deuren', fr: 'Fenêtres et portes',
      unit: 'm2', q: 'window_surface', cat: 'WINDOWS_AND_DOORS', vat: INSULATION, excl: 'WINDOWS',
      children: [
        {
          id: 'GLAZING_REPLACEMENT', name: 'Glazing replacement (keep frames)', nl: 'Vervangen beglazing', fr: 'Remplacement du vitrage',
          children: [
            { id: 'GLAZING_REPLACEMENT_HR', name: 'High-efficiency double glazing', nl: 'Hoogrendementsglas', fr: 'Vitrage haut rendement', planner: true, effect: glazing('HR') },
            { id: 'GLAZING_REPLACEMENT_TRIPLE', name: 'Triple glazing', nl: 'Driedubbel glas', fr: 'Triple vitrage', effect: glazing('TRIPLE_GLAZING') },
          ],
        },
        {
          id: 'WINDOW_REPLACEMENT', name: 'Window replacement (frame and glazing)', nl: 'Vervangen ramen', fr: 'Remplacement des fenêtres',
          children: [
            {
              id: 'WINDOW_REPLACEMENT_PVC', name: 'PVC frames', nl: 'PVC-ramen', fr: 'Châssis PVC',
              children: [
                { id: 'WINDOW_REPLACEMENT_PVC_HR', name: 'PVC frames, HR++ glazing', nl: 'PVC-ramen met hoogrendementsglas', fr: 'Châssis PVC, vitrage haut rendement', planner: true, effect: glazing('HR') },
                { id: 'WINDOW_REPLACEMENT_PVC_TRIPLE', name: 'PVC frames, triple glazing', nl: 'PVC-ramen met driedubbel glas', fr: 'Châssis PVC, triple vitrage', planner: true, effect: glazing('TRIPLE_GLAZING') },
              ],
            },
            {
              id: 'WINDOW_REPLACEMENT_WOOD', name: 'Wooden frames', nl: 'Houten ramen', fr: 'Châssis bois',
              children: [
                { id: 'WINDOW_REPLACEMENT_WOOD_HR', name: 'Wooden frames, HR++ glazing', nl: 'Houten ramen met hoogrendementsglas', fr: 'Châssis bois, vitrage haut rendement', effect: glazing('HR') },
                { id: 'WINDOW_REPLACEMENT_WOOD_TRIPLE', name: 'Wooden frames, triple glazing', nl: 'Houten ramen met driedubbel glas', fr: 'Châssis bois, triple vitrage', effect: glazing('TRIPLE_GLAZING') },
              ],
            },
            {
              id: 'WINDOW_REPLACEMENT_ALUMINIUM', name: 'Aluminium frames', nl: 'Aluminium ramen', fr: 'Châssis aluminium',
              children: [
                { id: 'WINDOW_REPLACEMENT_ALUMINIUM_HR', name: 'Aluminium frames, HR++ glazing', nl: 'Aluminium ramen met hoogrendementsglas', fr: 'Châssis aluminium, vitrage haut rendement', effect: glazing('HR') },
                { id: 'WINDOW_REPLACEMENT_ALUMINIUM_TRIPLE', name: 'Aluminium frames, triple glazing', nl: 'Aluminium ramen met driedubbel glas', fr: 'Châssis aluminium, triple vitrage', effect: glazing('TRIPLE_GLAZING') },
              ],
            },
          ],
        },
        {
          id: 'EXTERIOR_DOOR_REPLACEMENT', name: 'Insulated exterior door', nl: 'Geïsoleerde buitendeur', fr: 'Porte extérieure isolée',
          unit: 'piece', q: 'count', vat: RENOVATION, excl: 'EXTERIOR_DOOR',
        },
      ],
    },
    {
      id: 'FLOOR_INSULATION', name: 'Floor insulation', nl: 'Vloerisolatie', fr: 'Isolation du sol',
      unit: 'm2', cat: 'FLOORS', vat: INSULATION, excl: 'FLOOR_INSULATION',
      children: [
        {
          id: 'BASEMENT_CEILING_INSULATION', name: 'Basement ceiling insulation', nl: 'Kelderplafondisolatie', fr: 'Isolation du plafond de cave',
          q: 'basement_ceiling_surface', planner: true, effect: insulate('floor_above_basement_insulation_type', 'MODERATE'),
          req: [{ applies_if: { field: 'basement_type', op: 'eq', value: 'UNHEATED' }, reason: 'Needs an unheated cellar below the floor.' }],
        },
        {
          id: 'CRAWL_SPACE_FLOOR_INSULATION', name: 'Floor insulation from the crawl space', nl: 'Vloerisolatie vanuit de kruipruimte',
          fr: 'Isolation du plancher par le vide sanitaire', q: 'basement_ceiling_surface', planner: true,
          effect: insulate('floor_above_basement_insulation_type', 'MODERATE'),
          req: [{ applies_if: { field: 'basement_type', op: 'eq', value: 'CRAWL_SPACE' }, reason: 'Needs an accessible crawl space.' }],
        },
        {
          id: 'CRAWL_SPACE_BOTTOM_INSULATION', name: 'Crawl-space bottom insulation', nl: 'Bodemisolatie kruipruimte',
          fr: 'Isolation du fond du vide sanitaire', q: 'basement_ceiling_surface',
          effect: insulate('floor_above_basement_insulation_type', 'LIGHT'),
          req: [{ applies_if: { field: 'basement_type', op: 'eq', value: 'CRAWL_SPACE' }, reason: 'Needs an accessible crawl space.' }],
        },
        {
          id: 'SOLID_FLOOR_INSULATION', name: 'Solid ground floor insulation (new floor build-up)', nl: 'Isolatie vloer op volle grond',
          fr: 'Isolation du sol sur terre-plein', q: 'solid_ground_floor_surface', planner: true,
          effect: insulate('solid_ground_floor_insulation_type', 'STRONG'),
          req: [{ applies_if: { field: 'basement_type', op: 'eq', value: 'NONE' }, reason: 'Only for a floor resting on the ground.' }],
        },
      ],
    },
    {
      id: 'HEATING', name: 'Heating', nl: 'Verwarming', fr: 'Chauffage',
      unit: 'piece', q: 'count', cat: 'TECHNICAL_INSTALLATIONS', vat: HEAT_PUMP, excl: 'HEAT_GENERATOR',
      children: [
        {
          id: 'HEAT_PUMP', name: 'Heat pump', nl: 'Warmtepomp', fr: 'Pompe à chaleur',
          children: [
            {
              id: 'HEAT_PUMP_AIR_WATER', name: 'Air-to-water heat pump', nl: 'Lucht-waterwarmtepomp', fr: 'Pompe à chaleur air-eau',
              planner: true, effect: heatPump('HEAT_PUMP_AIR_WATER'),
              req: [{ after_any: ENVELOPE_MEASURES, after_unless: envelopeReadyForHeatPump, reason: 'An all-electric heat pump needs an insulated envelope first (or choose a hybrid).' }],
            },
            {
              id: 'HEAT_PUMP_GEOTHERMAL', name: 'Ground-source heat pump', nl: 'Bodem-waterwarmtepomp (geothermisch)', fr: 'Pompe à chaleur géothermique',
              planner: true, effect: heatPump('HEAT_PUMP_GEOTHERMAL'),
              req: [{ after_any: ENVELOPE_MEASURES, after_unless: envelopeReadyForHeatPump, reason: 'An all-electric heat pump needs an insulated envelope first (or choose a hybrid).' }],
            },
            {
              id: 'HEAT_PUMP_HYBRID', name: 'Hybrid heat pump (with boiler)', nl: 'Hybride warmtepomp', fr: 'Pompe à chaleur hybride',
              planner: true, vat: { BE: 'BE_HYBRID_HEAT_PUMP', NL: 'NL_STANDARD' },
              // A hybrid keeps the boiler's carrier (gas unless stated) for peak load.
              effect: { patch: { heating_device: 'HEAT_PUMP_HYBRID', installation_age: 0 }, defaults: { heating_type: 'NATURAL_GAS' }, add_eco_facilities: ['HEAT_PUMP'] },
            },
            {
              id: 'HEAT_PUMP_AIR_AIR', name: 'Air-to-air heat pump', nl: 'Lucht-luchtwarmtepomp', fr: 'Pompe à chaleur air-air',
              planner: true, effect: heatPump('HEAT_PUMP_AIR_AIR'),
              req: [{ after_any: ENVELOPE_MEASURES, after_unless: envelopeReadyForHeatPump, reason: 'An all-electric heat pump needs an insulated envelope first (or choose a hybrid).' }],
            },
          ],
        },
        {
          id: 'CONDENSING_BOILER', name: 'Gas condensing boiler', nl: 'Condensatieketel op gas', fr: 'Chaudière gaz à condensation',
          vat: FOSSIL, planner: true,
          effect: { patch: { heating_type: 'NATURAL_GAS', heating_device: 'CONDENSING_BOILER', installation_age: 0 } },
          req: [{
            applies_if: { field: 'heating_type', op: 'in', value: ['NATURAL_GAS', 'PROPANE'] },
            reason: 'Only where the home already has a gas supply; no new gas connections are planned.',
          }],
        },
        {
          id: 'PELLET_BOILER', name: 'Pellet boiler', nl: 'Pelletketel', fr: 'Chaudière à pellets',
          vat: RENOVATION, planner: true,
          effect: { patch: { heating_type: 'WOOD_PELLETS', heating_device: 'PELLET_BOILER', installation_age: 0 } },
        },
      ],
    },
    {
      id: 'HOT_WATER', name: 'Domestic hot water', nl: 'Sanitair warm water', fr: 'Eau chaude sanitaire',
      unit: 'piece', q: 'count', cat: 'TECHNICAL_INSTALLATIONS', vat: HEAT_PUMP,
      children: [
        {
          id: 'HEAT_PUMP_BOILER', name: 'Heat-pump water heater', nl: 'Warmtepompboiler', fr: 'Chauffe-eau thermodynamique',
          planner: true, excl: 'DHW_GENERATOR', effect: { patch: { sanitary_heating_device: 'HEAT_PUMP_BOILER' } },
        },
        {
          id: 'SOLAR_BOILER', name: 'Solar water heater', nl: 'Zonneboiler', fr: 'Chauffe-eau solaire',
          vat: { BE: 'BE_SOLAR', NL: 'NL_STANDARD' }, planner: true,
          effect: { patch: { has_solar_boiler: true }, add_eco_facilities: ['SOLAR_BOILER'] },
          req: [{ applies_if: { field: 'has_solar_boiler', op: 'neq', value: true }, reason: 'The home already has a solar water heater.' }],
        },
      ],
    },
    {
      id: 'VENTILATION', name: 'Ventilation', nl: 'Ventilatie', fr: 'Ventilation',
      unit: 'piece', q: 'count', cat: 'TECHNICAL_INSTALLATIONS', vat: RENOVATION, excl: 'VENTILATION',
      children: [
        {
          id: 'VENTILATION_SYSTEM_C', name: 'Mechanical extract ventilation (system C)', nl: 'Ventilatiesysteem C', fr: 'Ventilation simple flux (système C)',
          planner: true, effect: { patch: { ventilation_type: 'SYSTEM_C' }, add_eco_facilities: ['VENTILATION_C'] },
        },
        {
          id: 'VENTILATION_SYSTEM_D', name: 'Balanced ventilation with heat recovery (system D)', nl: 'Ventilatiesysteem D met warmteterugwinning',
          fr: 'Ventilation double flux (système D)', planner: true,
          effect: { patch: { ventilation_type: 'SYSTEM_D' }, add_eco_facilities: ['VENTILATION_D'] },
          req: [{
            after_any: AIRTIGHTENING_MEASURES,
            after_unless: { field: 'window_glazing_type', op: 'at_least_level', value: 'HR', unknown: 'fail' },
            reason: 'Heat recovery only pays off in an airtight envelope: airtightness works or new windows first.',
          }],
        },
      ],
    },
    {
      id: 'AIRTIGHTNESS_IMPROVEMENT', name: 'Airtightness works with blower-door test', nl: 'Luchtdichtheidswerken met blowerdoortest',
      fr: 'Travaux d\u2019étanchéité à l\u2019air avec test d\u2019infiltrométrie', unit: 'lump_sum', q: 'lump_sum', cat: 'OTHER', vat: RENOVATION,
    },
    {
      id: 'SOLAR_PANELS', name: 'Solar panels (PV)', nl: 'Zonnepanelen', fr: 'Panneaux photovoltaïques',
      unit: 'kWp', q: 'pv_kwp_from_roof', cat: 'TECHNICAL_INSTALLATIONS', vat: { BE: 'BE_SOLAR', NL: 'NL_PV' }, planner: true,
      effect: { add_kwp_from_quantity: true, add_eco_facilities: ['SOLAR_PANELS'] },
      req: [{ after_any: HEAT_GENERATORS, after_unless: { field: 'heating_device', op: 'in', value: ['HEAT_PUMP_AIR_WATER', 'HEAT_PUMP_GEOTHERMAL', 'HEAT_PUMP_AIR_AIR', 'HEAT_PUMP_HYBRID', 'CONDENSING_BOILER', 'PELLET_BOILER'], unknown: 'pass' }, reason: 'PV is sized after the heating decision.' }],
    },
    {
      id: 'HOME_BATTERY', name: 'Home battery', nl: 'Thuisbatterij', fr: 'Batterie domestique',
      unit: 'piece', q: 'count', cat: 'TECHNICAL_INSTALLATIONS', vat: RENOVATION,
      effect: { add_eco_facilities: ['HOME_BATTERY'] },
    },
    {
      id: 'ELECTRICITY', name: 'Electrical installation', nl: 'Elektrische installatie', fr: 'Installation électrique',
      cat: 'TECHNICAL_INSTALLATIONS', vat: RENOVATION,
      children: [
        { id: 'ELECTRICAL_REWIRING', name: 'Complete rewiring', nl: 'Volledige vernieuwing elektriciteit', fr: 'Rénovation complète de l\u2019électricité', unit: 'm2', q: 'habitable_space' },
        { id: 'EV_CHARGER', name: 'EV charger', nl: 'Laadpaal', fr: 'Borne de recharge', unit: 'piece', q: 'count', effect: { add_eco_facilities: ['EV_CHARGER'] } },
      ],
    },
    {
      id: 'RAINWATER_TANK', name: 'Rainwater tank', nl: 'Regenwaterput', fr: 'Citerne d\u2019eau de pluie',
      unit: 'piece', q: 'count', cat: 'OTHER', vat: RENOVATION, effect: { add_eco_facilities: ['RAINWATER_TANK'] },
    },
    {
      id: 'ASBESTOS_REMOVAL', name: 'Asbestos removal', nl: 'Asbestverwijdering', fr: 'Désamiantage',
      unit: 'm2', cat: 'ASBESTOS_REMOVAL', vat: RENOVATION,
      children: [
        { id: 'ASBESTOS_REMOVAL_ROOF', name: 'Asbestos-cement roof removal', nl: 'Verwijderen asbestcement dak', fr: 'Enlèvement de toiture en amiante-ciment', q: 'roof_surface' },
        { id: 'ASBESTOS_REMOVAL_FACADE', name: 'Asbestos facade cladding removal', nl: 'Verwijderen asbesthoudende gevelbekleding', fr: 'Enlèvement de bardage amianté', q: 'facade_net_surface' },
      ],
    },
  ],
  roof: [
    {
      id: 'ROOF_INSULATION', name: 'Roof insulation', nl: 'Dakisolatie', fr: 'Isolation de toiture',
      unit: 'm2', cat: 'ROOF', vat: INSULATION, excl: 'ROOF_INSULATION',
      children: [
        {
          id: 'INCLINED_ROOF_INSULATION_INSIDE', name: 'Pitched roof insulation from inside', nl: 'Hellend dak isoleren langs binnen',
          fr: 'Isolation de toiture inclinée par l\u2019intérieur', q: 'inclined_roof_surface', planner: true,
          effect: insulate('inclined_roof_insulation_type', 'STRONG'),
          req: [{ applies_if: inclinedRoof, reason: 'Only for a pitched roof.' }],
        },
        {
          id: 'INCLINED_ROOF_INSULATION_OUTSIDE', name: 'Pitched roof insulation from outside (sarking, new covering)', nl: 'Hellend dak isoleren langs buiten (sarking)',
          fr: 'Isolation de toiture inclinée par l\u2019extérieur (sarking)', q: 'inclined_roof_surface', planner: true, structural: true,
          effect: insulate('inclined_roof_insulation_type', 'STRONG'),
          req: [{ applies_if: inclinedRoof, reason: 'Only for a pitched roof.' }],
        },
        {
          id: 'FLAT_ROOF_INSULATION', name: 'Flat roof insulation (warm roof, new waterproofing)', nl: 'Plat dak isoleren (warm dak)',
          fr: 'Isolation de toiture plate (toiture chaude)', q: 'flat_roof_surface', planner: true,
          effect: insulate('flat_roof_insulation_type', 'STRONG'),
          req: [{ applies_if: flatRoof, reason: 'Only for a flat roof.' }],
        },
        {
          id: 'ATTIC_FLOOR_INSULATION', name: 'Attic floor insulation (unheated attic)', nl: 'Zoldervloerisolatie', fr: 'Isolation du plancher des combles',
          q: 'attic_floor_surface', planner: true, effect: insulate('inclined_roof_insulation_type', 'STRONG'),
          req: [{ applies_if: inclinedRoof, reason: 'Only under a pitched roof with an unheated attic.' }],
        },
      ],
    },
    {
      id: 'ROOF_COVERING', name: 'Roof covering', nl: 'Dakbedekking', fr: 'Couverture de toiture',
      unit: 'm2', cat: 'ROOF', vat: RENOVATION, excl: 'ROOF_COVERING',
      children: [
        {
          id: 'INCLINED_ROOF_COVERING', name: 'Pitched roof covering', nl: 'Hellende dakbedekking', fr: 'Couverture de toiture inclinée',
          q: 'inclined_roof_surface', req: [{ applies_if: inclinedRoof, reason: 'Only for a pitched roof.' }],
          children: [
            { id: 'ROOF_COVERING_TILES', name: 'Roof tiles with underlay', nl: 'Dakpannen met onderdak', fr: 'Tuiles avec sous-toiture' },
            { id: 'ROOF_COVERING_SLATES', name: 'Natural slates with underlay', nl: 'Natuurleien met onderdak', fr: 'Ardoises naturelles avec sous-toiture' },
          ],
        },
        {
          id: 'FLAT_ROOF_COVERING', name: 'Flat roof waterproofing', nl: 'Platte dakbedekking', fr: 'Étanchéité de toiture plate',
          q: 'flat_roof_surface', req: [{ applies_if: flatRoof, reason: 'Only for a flat roof.' }],
          children: [
            { id: 'FLAT_ROOF_COVERING_BITUMEN', name: 'Bitumen roofing', nl: 'Bitumineuze dakbedekking', fr: 'Membrane bitumineuse' },
            { id: 'FLAT_ROOF_COVERING_EPDM', name: 'EPDM roofing', nl: 'EPDM-dakbedekking', fr: 'Membrane EPDM' },
            { id: 'GREEN_ROOF', name: 'Extensive green roof', nl: 'Extensief groendak', fr: 'Toiture verte extensive', excl: 'GREEN_ROOF', effect: { add_eco_facilities: ['GREEN_ROOF'] } },
          ],
        },
      ],
    },
    {
      id: 'ROOF_DRAINAGE', name: 'Gutters and downpipes', nl: 'Dakgoten en afvoer', fr: 'Gouttières et descentes',
      unit: 'm', q: 'gutter_length', cat: 'ROOF', vat: RENOVATION, excl: 'GUTTER',
      children: [
        { id: 'BOX_GUTTER', name: 'Box gutter (zinc)', nl: 'Bakgoot (zink)', fr: 'Corniche (zinc)' },
        {
          id: 'HANGING_GUTTER', name: 'Hanging gutter', nl: 'Hanggoot', fr: 'Gouttière pendante',
          children: [
            { id: 'HANGING_GUTTER_PLASTIC', name: 'Hanging gutter, PVC', nl: 'Hanggoot in PVC', fr: 'Gouttière pendante en PVC' },
            { id: 'HANGING_GUTTER_METAL', name: 'Hanging gutter, zinc or aluminium', nl: 'Hanggoot in zink of aluminium', fr: 'Gouttière pendante en zinc ou aluminium' },
          ],
        },
      ],
    },
    {
      id: 'ROOF_WINDOWS', name: 'Roof windows', nl: 'Dakramen', fr: 'Fenêtres de toit',
      unit: 'piece', q: 'count', cat: 'ROOF', vat: RENOVATION,
      children: [
        { id: 'ROOF_WINDOW', name: 'Pitched roof window', nl: 'Dakvlakraam', fr: 'Fenêtre de toit', req: [{ applies_if: inclinedRoof, reason: 'Only for a pitched roof.' }] },
        { id: 'FLAT_ROOF_SKYLIGHT', name: 'Flat roof skylight', nl: 'Lichtkoepel', fr: 'Coupole de toit plat', req: [{ applies_if: flatRoof, reason: 'Only for a flat roof.' }] },
      ],
    },
    {
      id: 'ROOF_STRUCTURE', name: 'Roof structure renewal', nl: 'Vernieuwen dakstructuur', fr: 'Renouvellement de la charpente',
      unit: 'm2', q: 'roof_surface', cat: 'ROOF', vat: RENOVATION, structural: true,
    },
  ],
  room: [
    { id: 'KITCHEN', name: 'Kitchen', nl: 'Keuken', fr: 'Cuisine', unit: 'piece', q: 'count', cat: 'OTHER', vat: RENOVATION },
    { id: 'BATHROOM', name: 'Bathroom', nl: 'Badkamer', fr: 'Salle de bains', unit: 'piece', q: 'count', cat: 'TECHNICAL_INSTALLATIONS', vat: RENOVATION },
    {
      id: 'FLOORING', name: 'Floor finishing', nl: 'Vloerafwerking', fr: 'Revêtement de sol',
      unit: 'm2', q: 'room_floor_surface', cat: 'OTHER', vat: RENOVATION, excl: 'FLOORING',
      children: [
        { id: 'FLOORING_LAMINATE', name: 'Laminate', nl: 'Laminaat', fr: 'Stratifié' },
        { id: 'FLOORING_PARQUET', name: 'Parquet', nl: 'Parket', fr: 'Parquet' },
        { id: 'FLOORING_TILES', name: 'Tiles', nl: 'Tegels', fr: 'Carrelage' },
      ],
    },
    {
      id: 'WALL_FINISHING', name: 'Wall finishing', nl: 'Muurafwerking', fr: 'Finition des murs',
      unit: 'm2', q: 'room_wall_surface', cat: 'OTHER', vat: RENOVATION,
      children: [
        { id: 'WALL_PLASTERING', name: 'Plastering', nl: 'Bepleistering', fr: 'Plafonnage' },
        { id: 'WALL_PAINTING', name: 'Painting', nl: 'Schilderwerk', fr: 'Peinture' },
      ],
    },
    {
      id: 'CEILING', name: 'Ceiling', nl: 'Plafond', fr: 'Plafond',
      unit: 'm2', q: 'room_floor_surface', cat: 'OTHER', vat: RENOVATION, excl: 'CEILING',
      children: [
        { id: 'CEILING_PLASTERING', name: 'Ceiling plastering', nl: 'Plafond bepleisteren', fr: 'Plafonnage du plafond' },
        { id: 'SUSPENDED_CEILING', name: 'Suspended ceiling', nl: 'Verlaagd plafond', fr: 'Faux plafond' },
      ],
    },
    { id: 'INTERIOR_DOORS', name: 'Interior doors', nl: 'Binnendeuren', fr: 'Portes intérieures', unit: 'piece', q: 'count', cat: 'OTHER', vat: RENOVATION },
    {
      id: 'HEAT_EMITTERS', name: 'Heat emitters', nl: 'Warmteafgifte', fr: 'Émetteurs de chaleur',
      cat: 'TECHNICAL_INSTALLATIONS', vat: DISTRIBUTION,
      children: [
        { id: 'RADIATOR_REPLACEMENT', name: 'Low-temperature radiator', nl: 'Lagetemperatuurradiator', fr: 'Radiateur basse température', unit: 'piece', q: 'count' },
        { id: 'UNDERFLOOR_HEATING', name: 'Underfloor heating', nl: 'Vloerverwarming', fr: 'Chauffage par le sol', unit: 'm2', q: 'room_floor_surface' },
      ],
    },
    {
      id: 'INTERIOR_WALL_REMOVAL', name: 'Opening a load-bearing wall (steel beam)', nl: 'Dragende muur doorbreken (stalen balk)',
      fr: 'Ouverture d\u2019un mur porteur (poutrelle)', unit: 'piece', q: 'count', cat: 'OTHER', vat: RENOVATION, structural: true,
    },
  ],
  staircase: [
    { id: 'STAIRCASE_RENOVATION', name: 'Staircase renovation (treads, finish)', nl: 'Trap renoveren', fr: 'Rénovation d\u2019escalier', unit: 'piece', q: 'count', cat: 'OTHER', vat: RENOVATION },
    {
      id: 'STAIRCASE_REPLACEMENT', name: 'Staircase replacement', nl: 'Trap vervangen', fr: 'Remplacement d\u2019escalier',
      unit: 'piece', q: 'count', cat: 'OTHER', vat: RENOVATION, structural: true, excl: 'STAIRCASE',
      children: [
        { id: 'STAIRCASE_REPLACEMENT_WOOD', name: 'Wooden staircase', nl: 'Houten trap', fr: 'Escalier en bois' },
        { id: 'STAIRCASE_REPLACEMENT_METAL', name: 'Steel staircase', nl: 'Stalen trap', fr: 'Escalier en acier' },
      ],
    },
    { id: 'RAILING', name: 'Railing', nl: 'Trapleuning en balustrade', fr: 'Garde-corps', unit: 'm', q: 'railing_length', cat: 'OTHER', vat: RENOVATION },
  ],
  derived: [
    { id: 'SCAFFOLDING', name: 'Scaffolding', nl: 'Stelling', fr: 'Échafaudage', unit: 'm2', q: 'lump_sum', cat: 'OTHER', vat: RENOVATION },
    { id: 'ARCHITECT', name: 'Architect', nl: 'Architect', fr: 'Architecte', unit: 'lump_sum', q: 'lump_sum', cat: 'OTHER', vat: SERVICE },
    { id: 'SAFETY_COORDINATION', name: 'Safety coordinator', nl: 'Veiligheidscoördinator', fr: 'Coordinateur sécurité', unit: 'lump_sum', q: 'lump_sum', cat: 'OTHER', vat: SERVICE },
    { id: 'DEMOLITION', name: 'Demolition and removal', nl: 'Afbraak', fr: 'Démolition', unit: 'lump_sum', q: 'lump_sum', cat: 'OTHER', vat: RENOVATION },
    { id: 'WASTE_DISPOSAL', name: 'Waste container and disposal', nl: 'Afvalcontainer en afvoer', fr: 'Conteneur et évacuation des déchets', unit: 'piece', q: 'count', cat: 'OTHER', vat: RENOVATION },
    { id: 'ASBESTOS_INVENTORY', name: 'Asbestos inventory', nl: 'Asbestinventaris', fr: 'Inventaire amiante', unit: 'lump_sum', q: 'lump_sum', cat: 'OTHER', vat: SERVICE },
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
  return nodes;
}

/** Every node by its `renovation_component_type`, in tree order. */
export const NODES: ReadonlyMap<string, CatalogueNode> = build();
