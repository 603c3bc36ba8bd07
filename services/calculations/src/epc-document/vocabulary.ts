import { z } from 'zod';
import {
  EstateFormat,
  EstateType,
  GlazingType,
  HeatingDevice,
  HeatingType,
  InsulationLevel,
  SanitaryHeatingDevice,
  VentilationType,
  escapeRegExp,
} from '@renopath/contracts';
import vocabularyJson from './epc-vocabulary.json' with { type: 'json' };

/** The words the parser looks for, read once from epc-vocabulary.json (sources there) and checked against a schema. */

export const DOCUMENT_KINDS = ['EPC_FLANDERS', 'ENERGY_LABEL_NL'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** The labelled fields a certificate may state; `insulation.*` name the envelope elements. */
export const FIELD_KEYS = [
  'score',
  'energy_index',
  'label',
  'certificate_number',
  'issue_date',
  'valid_until',
  'address',
  'street',
  'house_number',
  'house_number_extra',
  'zip_code',
  'place',
  'year_built',
  'habitable_space_m2',
  'building_type',
  'heating',
  'heating_carrier',
  'hot_water',
  'solar_panels',
  'solar_boiler',
  'ventilation',
  'glazing',
  'insulation.inclined_roof',
  'insulation.flat_roof',
  'insulation.roof',
  'insulation.wall',
  'insulation.cavity_wall',
  'insulation.floor',
  'insulation.floor_above_basement',
  'insulation.floor_above_crawl_space',
] as const;
export type FieldKey = (typeof FIELD_KEYS)[number];

const words = z.array(z.string().min(1)).min(1);
const entry = <T extends z.ZodRawShape>(shape: T) => z.object({ words, ...shape });

const Vocabulary = z.object({
  validity_years: z.object({ EPC_FLANDERS: z.number().int().min(1), ENERGY_LABEL_NL: z.number().int().min(1) }),
  kinds: z.object({
    EPC_FLANDERS: z.object({ country: z.literal('BE'), min_markers: z.number().int().min(1), markers: words }),
    ENERGY_LABEL_NL: z.object({ country: z.literal('NL'), min_markers: z.number().int().min(1), markers: words }),
  }),
  fields: z.object({
    EPC_FLANDERS: z.partialRecord(z.enum(FIELD_KEYS), words),
    ENERGY_LABEL_NL: z.partialRecord(z.enum(FIELD_KEYS), words),
  }),
  values: z.object({
    months: z.record(z.string(), z.number().int().min(1).max(12)),
    solar_boiler: words,
    yes: words,
    no: words,
    unknown: words,
    heating_devices: z.array(entry({ heating_device: HeatingDevice.optional(), heating_type: HeatingType.optional() })),
    heating_carriers: z.array(entry({ heating_type: HeatingType })),
    hot_water: z.array(entry({ sanitary_heating_device: SanitaryHeatingDevice })),
    glazing: z.array(entry({ window_glazing_type: GlazingType })),
    ventilation: z.array(entry({ ventilation_type: VentilationType })),
    building_type: z.array(entry({ estate_format: EstateFormat.optional(), estate_type: EstateType.optional() })),
    insulation: z.object({
      none: words,
      insulated: words,
      r_value_words: words,
      u_value_words: words,
      lambda_w_per_mk: z.number().positive(),
      level_when_only_insulated: InsulationLevel,
    }),
  }),
  energy_index_nl_before_2021: z.object({
    bands: z.array(z.object({ label: z.string(), upper: z.number().nullable() })).min(2),
  }),
});

export const vocabulary = Vocabulary.parse(vocabularyJson);

/**
 * Lower case without accents, one output character per input character so offsets found in the
 * folded text hold in the original ("geïsoleerd" -> "geisoleerd").
 */
export function fold(text: string): string {
  let out = '';
  for (const ch of text) {
    // Characters outside the BMP take two code units: kept as they are, the length stays equal.
    if (ch.length !== 1) out += ch;
    else {
      const base = ch.normalize('NFD').charAt(0).toLowerCase();
      out += base.length === 1 ? base : ch;
    }
  }
  return out;
}

/** A regular expression matching the (folded) word as a whole word in folded text. */
export function wordPattern(word: string, flags = 'g'): RegExp {
  return new RegExp(`(?<![a-z0-9])${escapeRegExp(fold(word))}(?![a-z0-9])`, flags);
}

/** The first entry of an ordered list whose words occur in the folded text. */
export function firstEntry<T extends { words: string[] }>(entries: readonly T[], folded: string): T | undefined {
  return entries.find((e) => e.words.some((w) => wordPattern(w, '').test(folded)));
}

export function mentionsAny(list: readonly string[], folded: string): boolean {
  return list.some((w) => wordPattern(w, '').test(folded));
}
