import { deflateSync } from 'node:zlib';
import { getNode } from '@renopath/catalog';
import type { EnergyEfficiencyType } from '@renopath/contracts';
import { labelFor, labelsOf } from '@renopath/energy';
import { milestonesOf } from '../report-model/conditions.ts';
import type { ReportGrantCategory, ReportItem, ReportLanguage, ReportModel, ReportStep } from '../report-model.ts';

/**
 * Sample report models for tests, benchmarks and previews: a terraced house renovated in up to twelve
 * steps, with supporting works, grants, assumptions and a confidence band. The figures are plausible
 * fixtures, not domain data.
 */

/** The planner's order of a deep renovation: envelope first, then installations. */
const STEP_TYPES = [
  'INCLINED_ROOF_INSULATION_INSIDE',
  'CAVITY_WALL_INSULATION',
  'WINDOW_REPLACEMENT_PVC_HR',
  'BASEMENT_CEILING_INSULATION',
  'AIRTIGHTNESS_IMPROVEMENT',
  'EXTERIOR_DOOR_REPLACEMENT',
  'VENTILATION_SYSTEM_D',
  'LOW_TEMPERATURE_RADIATORS_WHOLE_HOME',
  'HEAT_PUMP_AIR_WATER',
  'HEAT_PUMP_BOILER',
  'SOLAR_PANELS',
  'HOME_BATTERY',
] as const;

interface StepFixture {
  quantity: number;
  unit: string;
  cost: number;
  grant: number;
  derived: Array<{ type: string; cost: number }>;
}
const FIXTURES: Record<(typeof STEP_TYPES)[number], StepFixture> = {
  INCLINED_ROOF_INSULATION_INSIDE: {
    quantity: 86.4,
    unit: 'm2',
    cost: 7_344.0,
    grant: 1_728.0,
    derived: [{ type: 'WASTE_DISPOSAL', cost: 420.0 }],
  },
  CAVITY_WALL_INSULATION: { quantity: 112.5, unit: 'm2', cost: 3_037.5, grant: 675.0, derived: [] },
  WINDOW_REPLACEMENT_PVC_HR: { quantity: 24.8, unit: 'm2', cost: 16_864.0, grant: 2_480.0, derived: [{ type: 'DEMOLITION', cost: 890.0 }] },
  BASEMENT_CEILING_INSULATION: { quantity: 48.0, unit: 'm2', cost: 2_112.0, grant: 384.0, derived: [] },
  AIRTIGHTNESS_IMPROVEMENT: { quantity: 1, unit: 'lump_sum', cost: 2_450.0, grant: 0, derived: [] },
  EXTERIOR_DOOR_REPLACEMENT: { quantity: 2, unit: 'piece', cost: 4_180.0, grant: 300.0, derived: [] },
  VENTILATION_SYSTEM_D: { quantity: 1, unit: 'piece', cost: 8_950.0, grant: 1_200.0, derived: [] },
  LOW_TEMPERATURE_RADIATORS_WHOLE_HOME: { quantity: 132.0, unit: 'm2', cost: 6_270.0, grant: 0, derived: [] },
  HEAT_PUMP_AIR_WATER: {
    quantity: 1,
    unit: 'piece',
    cost: 14_600.0,
    grant: 4_150.0,
    derived: [{ type: 'ELECTRICAL_REWIRING', cost: 1_350.0 }],
  },
  HEAT_PUMP_BOILER: { quantity: 1, unit: 'piece', cost: 3_290.0, grant: 600.0, derived: [] },
  SOLAR_PANELS: { quantity: 4.8, unit: 'kWp', cost: 6_480.0, grant: 0, derived: [{ type: 'SCAFFOLDING', cost: 760.0 }] },
  HOME_BATTERY: { quantity: 1, unit: 'piece', cost: 5_400.0, grant: 0, derived: [] },
};

const round2 = (v: number) => Math.round(v * 100) / 100;

/** Where each language's sample home is: Flanders for nl-BE and en, Wallonia for fr-BE, the Netherlands for nl-NL. */
function placeOf(language: ReportLanguage): { scale: EnergyEfficiencyType; country: 'BE' | 'NL'; vat: number; scores: [number, number] } {
  if (language === 'nl-NL') return { scale: 'ENERGY_LABEL_NL', country: 'NL', vat: 0.21, scores: [392, 98] };
  if (language === 'fr-BE') return { scale: 'EPC_WALLONIA', country: 'BE', vat: 0.06, scores: [438, 82] };
  return { scale: 'EPC_FLANDERS', country: 'BE', vat: 0.06, scores: [486, 74] };
}

const ADDRESS: Record<ReportLanguage, { street: string; house_number: string; zip_code: string; place: string }> = {
  'nl-BE': { street: 'Sint-Pietersnieuwstraat', house_number: '41', zip_code: '9000', place: 'Gent' },
  en: { street: 'Kerkstraat', house_number: '12', zip_code: '2000', place: 'Antwerpen' },
  'fr-BE': { street: 'Rue de l’Église', house_number: '7', zip_code: '5000', place: 'Namur' },
  'nl-NL': { street: 'Prinsengracht', house_number: '263', zip_code: '1016 GV', place: 'Amsterdam' },
};

const ASSUMPTIONS: Record<ReportLanguage, string[]> = {
  'nl-BE': [
    'De prijzen zijn richtprijzen van 2025, inclusief plaatsing, exclusief onvoorziene werken.',
    'Btw aan 6 % voor renovatie van een woning ouder dan tien jaar.',
    'Premies voor een eigenaar-bewoner in de middelste inkomenscategorie.',
  ],
  'nl-NL': [
    'De prijzen zijn richtprijzen van 2025, inclusief montage, exclusief onvoorzien meerwerk.',
    'Btw aan 21 %; isolatie en zonnepanelen volgens de geldende regels.',
    'Subsidies voor een eigenaar-bewoner volgens de ISDE-voorwaarden.',
  ],
  'fr-BE': [
    'Les prix sont des prix indicatifs de 2025, pose comprise, hors travaux imprévus.',
    'TVA à 6 % pour la rénovation d’un logement de plus de dix ans.',
    'Primes pour un propriétaire occupant de la catégorie de revenus moyenne.',
  ],
  en: [
    'Prices are 2025 guide prices including installation, excluding unforeseen works.',
    'VAT at 6 % for renovating a home older than ten years.',
    'Grants for an owner-occupier in the middle income group.',
  ],
};

/** Conditions as the catalogue words them (the renderers show them in the report's language). */
const SCHEME: Record<'BE' | 'NL', { name: string; conditions: string[] }> = {
  BE: {
    name: 'Mijn VerbouwPremie',
    conditions: [
      'Works invoiced by a registered contractor (VAT number); invoices at most 2 years old.',
      'Roof or attic-floor insulation with R >= 4.5 m2K/W [I].',
    ],
  },
  NL: {
    name: 'ISDE',
    conditions: [
      'Installed by a company; applied for within 24 months.',
      'Rate doubles with a second measure (insulation or heat pump) within 24 months.',
    ],
  },
};

/** The planner's phase of each sample step. */
const PHASE: Record<(typeof STEP_TYPES)[number], string> = {
  INCLINED_ROOF_INSULATION_INSIDE: 'ROOF',
  CAVITY_WALL_INSULATION: 'WALLS_AND_WINDOWS',
  WINDOW_REPLACEMENT_PVC_HR: 'WALLS_AND_WINDOWS',
  BASEMENT_CEILING_INSULATION: 'FLOOR',
  AIRTIGHTNESS_IMPROVEMENT: 'VENTILATION',
  EXTERIOR_DOOR_REPLACEMENT: 'WALLS_AND_WINDOWS',
  VENTILATION_SYSTEM_D: 'VENTILATION',
  LOW_TEMPERATURE_RADIATORS_WHOLE_HOME: 'HEAT_GENERATOR',
  HEAT_PUMP_AIR_WATER: 'HEAT_GENERATOR',
  HEAT_PUMP_BOILER: 'HOT_WATER',
  SOLAR_PANELS: 'SOLAR_PANELS',
  HOME_BATTERY: 'SOLAR_PANELS',
};

export interface SampleOptions {
  /** Steps in the trajectory, 0 to 12 (default 12). */
  stepCount?: number;
  /** The cover photo: a generated PNG (default), or none. */
  photo?: 'png' | 'none';
}

/** A complete, consistent report model: totals, cumulative costs and grant categories add up. */
export function sampleReportModel(language: ReportLanguage = 'nl-BE', options: SampleOptions = {}): ReportModel {
  const place = placeOf(language);
  const count = Math.max(0, Math.min(STEP_TYPES.length, options.stepCount ?? STEP_TYPES.length));
  const [from, to] = place.scores;
  let cumulative = 0;
  const steps: ReportStep[] = STEP_TYPES.slice(0, count).map((type, index) => {
    const f = FIXTURES[type];
    const items: ReportItem[] = [
      {
        renovation_component_type: type,
        quantity: f.quantity,
        unit: f.unit,
        estimated_cost: f.cost,
        estimated_vat_cost: round2(f.cost * place.vat),
        subsidy_amount: f.grant,
        derived: false,
      },
      ...f.derived.map((d) => ({
        renovation_component_type: d.type,
        quantity: 1,
        unit: 'lump_sum',
        estimated_cost: d.cost,
        estimated_vat_cost: round2(d.cost * place.vat),
        subsidy_amount: 0,
        derived: true,
      })),
    ];
    const cost = round2(items.reduce((s, i) => s + i.estimated_cost, 0));
    const vat = round2(items.reduce((s, i) => s + i.estimated_vat_cost, 0));
    const grant = round2(items.reduce((s, i) => s + i.subsidy_amount, 0));
    const net = round2(cost + vat - grant);
    cumulative = round2(cumulative + net);
    // Early envelope steps gain most: the score falls along a concave curve towards the target.
    const progress = 1 - (1 - (index + 1) / STEP_TYPES.length) ** 1.6;
    const score = Math.round(from - (from - to) * progress);
    return {
      order: index + 1,
      renovation_component_type: type,
      phase: PHASE[type],
      epc_label_after: labelFor(place.scale, score),
      epc_score_after: score,
      estimated_cost: cost,
      estimated_vat_cost: vat,
      subsidy_amount: grant,
      net_cost: net,
      cumulative_net_cost: cumulative,
      items,
    };
  });
  const sum = (pick: (s: ReportStep) => number) => round2(steps.reduce((s, step) => s + pick(step), 0));
  const totals = {
    estimated_cost: sum((s) => s.estimated_cost),
    estimated_vat_cost: sum((s) => s.estimated_vat_cost),
    subsidy_amount: sum((s) => s.subsidy_amount),
    total_estimated_cost_incl_vat: round2(sum((s) => s.estimated_cost) + sum((s) => s.estimated_vat_cost)),
    net_cost: sum((s) => s.net_cost),
  };
  const last = steps[steps.length - 1];
  return {
    language,
    generated_at: '2026-03-14T10:30:00.000Z',
    estate: {
      title: null,
      ...ADDRESS[language],
      country: place.country,
      year_built: 1962,
      habitable_space_m2: 148,
      estate_type: 'HOUSE',
      photo: options.photo === 'none' ? null : { bytes: samplePhotoPng(), mimetype: 'image/png' },
    },
    scale: place.scale,
    labels: labelsOf(place.scale),
    current: { epc_score: from, epc_label: labelFor(place.scale, from) },
    reachable: last
      ? { epc_score: last.epc_score_after, epc_label: last.epc_label_after }
      : { epc_score: from, epc_label: labelFor(place.scale, from) },
    steps,
    totals,
    grants: grantsOf(steps, place.country),
    assumptions: ASSUMPTIONS[language],
    sources: [
      { field: 'year_built', source: 'INPUT' },
      { field: 'habitable_space_m2', source: 'EPC_DOCUMENT' },
      { field: 'energy_efficiency_score', source: 'EPC_DOCUMENT' },
      { field: 'inclined_roof_pane_surface', source: 'LIDAR' },
      { field: 'outer_wall_surface', source: 'LIDAR' },
      { field: 'building_width', source: 'PROVIDER' },
      { field: 'window_glazing_type', source: 'MODEL' },
      { field: 'heating_device', source: 'INPUT' },
    ],
    confidence: { score: 0.74, quality_label: 'B', average_pct: 14.5, standard_deviation_pct: 11.2, at_least: false },
    conditions: {
      price_year: 2026,
      rules_date: '2026-07-01',
      deed_date: '2026-07-01',
      income:
        place.country === 'NL'
          ? null
          : {
              category: 'MIDDLE',
              assumed: true,
              subsidy_by_category: {
                LOW: round2(totals.subsidy_amount * 1.4),
                MIDDLE: totals.subsidy_amount,
                HIGH: round2(totals.subsidy_amount * 0.5),
              },
            },
      modelled_fields: ['window_glazing_type'],
    },
    milestones: milestonesOf({
      region: place.scale === 'EPC_FLANDERS' ? 'FLANDERS' : place.scale === 'EPC_WALLONIA' ? 'WALLONIA' : 'NETHERLANDS',
      labels: labelsOf(place.scale),
      current: labelFor(place.scale, from),
      after: steps.map((st) => st.epc_label_after),
      year: 2026,
    }),
    agency: {
      name: 'Immo Zonnewijzer',
      phone: '+32 9 234 56 78',
      email: 'info@zonnewijzer.example',
      website: 'https://zonnewijzer.example',
    },
  };
}

function grantsOf(steps: ReportStep[], country: 'BE' | 'NL'): ReportGrantCategory[] {
  const byCategory = new Map<string, ReportGrantCategory>();
  for (const item of steps.flatMap((s) => s.items)) {
    if (item.subsidy_amount <= 0) continue;
    const category = getNode(item.renovation_component_type).grant_category;
    const group = byCategory.get(category) ?? { category, total_subsidy_amount: 0, items: [] };
    group.total_subsidy_amount = round2(group.total_subsidy_amount + item.subsidy_amount);
    group.items.push({
      renovation_component_type: item.renovation_component_type,
      subsidy_amount: item.subsidy_amount,
      scheme: SCHEME[country].name,
      conditions: SCHEME[country].conditions,
    });
    byCategory.set(category, group);
  }
  return [...byCategory.values()];
}

/** The same home with nothing known: no address, photo, labels, steps, grants, confidence or agency. */
export function emptyReportModel(language: ReportLanguage = 'nl-BE'): ReportModel {
  return {
    ...sampleReportModel(language, { stepCount: 0, photo: 'none' }),
    estate: {
      title: null,
      street: null,
      house_number: null,
      zip_code: null,
      place: null,
      country: 'BE',
      year_built: null,
      habitable_space_m2: null,
      estate_type: null,
      photo: null,
    },
    current: { epc_score: null, epc_label: null },
    reachable: { epc_score: null, epc_label: null },
    totals: { estimated_cost: 0, estimated_vat_cost: 0, subsidy_amount: 0, total_estimated_cost_incl_vat: 0, net_cost: 0 },
    grants: [],
    assumptions: [],
    sources: [],
    confidence: null,
    conditions: { price_year: null, rules_date: null, deed_date: null, income: null, modelled_fields: [] },
    milestones: [],
    agency: null,
  };
}

let photo: Uint8Array | null = null;

/** A 240x160 PNG of a house against the sky, drawn pixel by pixel (no image files in the repo). */
export function samplePhotoPng(): Uint8Array {
  if (photo) return photo;
  const width = 240;
  const height = 160;
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0;
    for (let x = 0; x < width; x++) {
      let c: [number, number, number] = [150 + Math.round((y / height) * 80), 190 + Math.round((y / height) * 50), 235];
      if (y > 140) c = [96, 160, 72];
      const inRoof = y >= 30 && y < 70 && Math.abs(x - 120) <= (y - 30) * 1.9;
      if (inRoof) c = [140, 60, 40];
      if (y >= 70 && y <= 140 && x >= 52 && x <= 188) c = [196, 120, 80];
      const inWindow = y >= 84 && y <= 108 && ((x >= 66 && x <= 96) || (x >= 144 && x <= 174));
      if (inWindow) c = [250, 240, 200];
      if (y >= 106 && y <= 140 && x >= 110 && x <= 130) c = [90, 58, 30];
      raw.set(c, y * (width * 3 + 1) + 1 + x * 3);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  photo = new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
  return photo;
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
