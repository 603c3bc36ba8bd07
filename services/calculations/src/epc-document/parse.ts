import { PropertyFields, type HeatingDevice, type HeatingType, type InsulationLevel, type PropertyDescription } from '@renopath/contracts';
import { labelFor, labelsOf } from '@renopath/energy';
import { consistency, envelope, levelOfU } from '@renopath/energy/model/data.ts';
import { DOCUMENT_KINDS, firstEntry, fold, mentionsAny, vocabulary, wordPattern, type DocumentKind, type FieldKey } from './vocabulary.ts';
import { type Segment, segmentsOf } from './segments.ts';
import {
  parseDutchNumber,
  readNumber,
  readScore,
  readLabel,
  readYear,
  readText,
  readCertificateNumber,
  readHouseNumber,
  readZip,
  readAddressLine,
  readDate,
  addYears,
  startOfDay,
  isoDay,
  numberAfter,
  clip,
} from './values.ts';

export { parseDutchNumber } from './values.ts';

/**
 * Reads what a Flemish EPC or a Dutch energielabel states from the text of the document. Pure: the
 * date that decides whether a certificate has expired comes in as `today`.
 */

export type EpcDocumentKind = DocumentKind | 'UNKNOWN';

export interface EpcFlag {
  field: string;
  code: string;
  message: string;
}

export interface ParsedEpcDocument {
  kind: EpcDocumentKind;
  /** The property fields the document states, valid for the trajectory request. */
  fields: Partial<PropertyDescription>;
  /** What the document states beyond the property fields (label, dates, certificate number) and the raw text behind each field. */
  extracted: Record<string, string | number | boolean>;
  /** Missing essentials and inconsistencies (docs/job-metadata.md data_quality.flags). */
  flags: EpcFlag[];
}

export interface ParseOptions {
  /** The day the document is judged on (expiry, year in the future). Defaults to now. */
  today?: Date;
}

const SCALE_NAME: Record<DocumentKind, string> = { EPC_FLANDERS: 'the Flemish EPC scale', ENERGY_LABEL_NL: 'the Dutch EP2 scale' };

export function parseEpcDocument(text: string, options: ParseOptions = {}): ParsedEpcDocument {
  const today = options.today ?? new Date();
  const lines = text
    .normalize('NFC')
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l.length > 0);
  if (lines.length === 0) {
    return {
      kind: 'UNKNOWN',
      fields: {},
      extracted: {},
      flags: [
        {
          field: 'epc_url',
          code: 'UNREADABLE_DOCUMENT',
          message: 'the EPC document contains no readable text (a scanned image cannot be read)',
        },
      ],
    };
  }
  const kind = detectKind(lines);
  if (kind === 'UNKNOWN') {
    return {
      kind,
      fields: {},
      extracted: {},
      flags: [{ field: 'epc_url', code: 'UNKNOWN_DOCUMENT', message: 'the document is neither a Flemish EPC nor a Dutch energielabel' }],
    };
  }
  return new Reader(kind, lines, today).read();
}

function detectKind(lines: string[]): EpcDocumentKind {
  const folded = fold(lines.join('\n'));
  let best: EpcDocumentKind = 'UNKNOWN';
  let bestCount = 0;
  for (const kind of DOCUMENT_KINDS) {
    const spec = vocabulary.kinds[kind];
    const count = spec.markers.filter((m) => wordPattern(m, '').test(folded)).length;
    if (count >= spec.min_markers && count > bestCount) {
      best = kind;
      bestCount = count;
    }
  }
  return best;
}

/** One reading of one document: collects fields, extracted facts and flags. */
class Reader {
  private readonly fields: Partial<PropertyDescription> = {};
  private readonly extracted: Record<string, string | number | boolean> = {};
  private readonly flags: EpcFlag[] = [];
  private readonly segments: Segment[];

  constructor(
    private readonly kind: DocumentKind,
    lines: string[],
    private readonly today: Date,
  ) {
    this.segments = segmentsOf(kind, lines);
  }

  read(): ParsedEpcDocument {
    this.set('country', vocabulary.kinds[this.kind].country);
    this.readScoreAndLabel();
    this.readDates();
    this.readAddress();
    this.readBuilding();
    this.readHeating();
    this.readHotWater();
    this.readEnvelope();
    this.readRenewablesAndVentilation();
    return { kind: this.kind, fields: this.fields, extracted: this.extracted, flags: this.flags };
  }

  private values(key: FieldKey): string[] {
    return this.segments
      .filter((s) => s.key === key)
      .map((s) => s.value)
      .filter((v) => v.length > 0);
  }

  /** The first value of the field that the reader accepts. */
  private first<T>(key: FieldKey, reader: (value: string) => T | undefined): { value: T; text: string } | undefined {
    for (const text of this.values(key)) {
      const value = reader(text);
      if (value !== undefined) return { value, text };
    }
    return undefined;
  }

  private flag(field: string, code: string, message: string) {
    this.flags.push({ field, code, message });
  }

  /** Sets a property field when it passes the request's own rule for that field. */
  private set<K extends keyof PropertyDescription>(field: K, value: PropertyDescription[K]) {
    const check = PropertyFields[field].safeParse(value);
    if (check.success) (this.fields as Record<string, unknown>)[field] = check.data;
    else
      this.flag(
        field,
        'INVALID_VALUE',
        `the EPC document states ${field} as ${JSON.stringify(value)}, which is not a valid value; it was ignored`,
      );
  }

  private readScoreAndLabel() {
    const scale = this.kind;
    const labels = labelsOf(scale);
    const score = this.first('score', readScore);
    const label = this.first('label', (v) => readLabel(v, labels));
    if (label) this.extracted.epc_label = label.value;
    if (score) {
      this.extracted.epc_score = score.value;
      this.extracted['text.score'] = score.text;
      this.set('energy_efficiency_score', score.value);
    }
    if (this.kind === 'ENERGY_LABEL_NL' && !score) {
      const index = this.first('energy_index', readNumber);
      if (index) {
        this.extracted.energy_index = index.value;
        this.flag(
          'energy_efficiency_score',
          'OLD_METHOD_ENERGY_INDEX',
          `the energielabel states an energie-index of ${index.value} (method before 2021), not the primary fossil energy use; it was not used as the score`,
        );
        if (label) this.checkEnergyIndexBand(index.value, label.value);
        if (!label) this.flag('epc_label', 'MISSING_LABEL', 'the EPC document states no energy label');
        return;
      }
    }
    if (!score) this.flag('energy_efficiency_score', 'MISSING_SCORE', `the EPC document states no energy score on ${SCALE_NAME[scale]}`);
    if (!label) this.flag('epc_label', 'MISSING_LABEL', 'the EPC document states no energy label');
    if (score && label) {
      const expected = labelFor(scale, score.value);
      if (expected !== label.value) {
        this.flag(
          'energy_efficiency_score',
          'SCORE_LABEL_MISMATCH',
          `the EPC document states score ${score.value} with label ${label.value}, but ${score.value} falls in label ${expected} on ${SCALE_NAME[scale]}`,
        );
      }
    }
  }

  private checkEnergyIndexBand(index: number, label: string) {
    const bands = vocabulary.energy_index_nl_before_2021.bands;
    const band = bands.find((b) => b.upper === null || index <= b.upper) ?? bands[bands.length - 1]!;
    if (!bands.some((b) => b.label === label)) return;
    if (band.label !== label) {
      this.flag(
        'energy_efficiency_score',
        'SCORE_LABEL_MISMATCH',
        `the energielabel states energie-index ${index} with label ${label}, but ${index} falls in label ${band.label} on the energie-index scale (before 2021)`,
      );
    }
  }

  private readDates() {
    const number = this.first('certificate_number', readCertificateNumber);
    if (number) this.extracted.certificate_number = number.value;
    const issued = this.first('issue_date', readDate);
    const validUntil = this.first('valid_until', readDate);
    if (issued) this.extracted.issue_date = isoDay(issued.value);
    if (validUntil) this.extracted.valid_until = isoDay(validUntil.value);
    const years = vocabulary.validity_years[this.kind];
    const end = validUntil?.value ?? (issued ? addYears(issued.value, years) : undefined);
    if (end && end.getTime() < startOfDay(this.today).getTime()) {
      this.flag(
        'epc_url',
        'CERTIFICATE_EXPIRED',
        `the certificate ${validUntil ? 'was valid until' : `was issued on ${isoDay(issued!.value)} and valid ${years} years, until`} ${isoDay(end)}; its data may be out of date`,
      );
    }
    if (issued && issued.value.getTime() > this.today.getTime()) {
      this.flag('epc_url', 'DATE_IN_FUTURE', `the certificate's date ${isoDay(issued.value)} lies in the future`);
    }
  }

  private readAddress() {
    const address = this.first('address', (v) => readAddressLine(v, this.kind));
    const street = this.first('street', readText);
    const houseNumber = this.first('house_number', readHouseNumber);
    const extra = this.first('house_number_extra', readText);
    const zip = this.first('zip_code', (v) => readZip(v, this.kind));
    const place = this.first('place', readText);
    const parts = address?.value;
    const chosenStreet = street?.value ?? parts?.street;
    if (chosenStreet) this.set('street', chosenStreet);
    const number =
      houseNumber?.value ?? (parts?.house_number ? { number: parts.house_number, extra: parts.house_number_extra } : undefined);
    if (number) {
      this.set('house_number', number.number);
      const more = extra?.value ?? number.extra;
      if (more) this.set('house_number_extra', more);
    } else if (extra) this.set('house_number_extra', extra.value);
    const chosenZip = zip?.value ?? parts?.zip_code ?? this.zipAnywhere();
    if (chosenZip) this.set('zip_code', chosenZip);
    else this.flag('zip_code', 'NOT_IN_DOCUMENT', 'the EPC document states no postal code');
    const chosenPlace = place?.value ?? parts?.place;
    if (chosenPlace) this.set('place', chosenPlace);
  }

  /** A Dutch postcode is unmistakable wherever it stands; a bare Belgian 4-digit number is not. */
  private zipAnywhere(): string | undefined {
    if (this.kind !== 'ENERGY_LABEL_NL') return undefined;
    for (const s of this.segments) {
      const zip = readZip(s.value, this.kind);
      if (zip) return zip;
    }
    return undefined;
  }

  private readBuilding() {
    const year = this.first('year_built', readYear);
    if (year) {
      this.extracted.year_built = year.value;
      if (year.value > this.today.getUTCFullYear()) {
        this.flag(
          'year_built',
          'YEAR_IN_FUTURE',
          `the EPC document states construction year ${year.value}, which lies in the future; it was ignored`,
        );
      } else this.set('year_built', year.value);
    } else this.flag('year_built', 'NOT_IN_DOCUMENT', 'the EPC document states no construction year');
    const area = this.first('habitable_space_m2', readNumber);
    if (area && area.value >= 1) this.set('habitable_space_m2', area.value);
    else this.flag('habitable_space_m2', 'NOT_IN_DOCUMENT', 'the EPC document states no floor area');
    for (const text of this.values('building_type')) {
      const folded = fold(text);
      for (const entry of vocabulary.values.building_type) {
        if (!mentionsAny(entry.words, folded)) continue;
        if (entry.estate_format && this.fields.estate_format === undefined) this.set('estate_format', entry.estate_format);
        if (entry.estate_type && this.fields.estate_type === undefined) this.set('estate_type', entry.estate_type);
      }
    }
  }

  private readHeating() {
    const texts = [...this.values('heating'), ...this.values('heating_carrier')];
    if (texts.length === 0) return;
    const folded = fold(texts.join(' | '));
    this.extracted['text.heating'] = texts.join(' | ');
    const device = firstEntry(vocabulary.values.heating_devices, folded);
    const carrier = firstEntry(vocabulary.values.heating_carriers, folded);
    const type: HeatingType | undefined = device?.heating_type ?? carrier?.heating_type;
    let deviceValue: HeatingDevice | undefined = device?.heating_device;
    if (type && deviceValue && !compatible(type, deviceValue)) {
      this.flag(
        'heating_device',
        'INCONSISTENT_DOCUMENT',
        `the EPC document describes a ${deviceValue} running on ${type}, which do not go together; only the heating type was kept`,
      );
      deviceValue = undefined;
    }
    if (type) this.set('heating_type', type);
    if (deviceValue) this.set('heating_device', deviceValue);
    if (!type && !deviceValue) this.flag('heating_type', 'NOT_RECOGNISED', `the heating system "${clip(texts[0]!)}" was not recognised`);
  }

  private readHotWater() {
    const texts = this.values('hot_water');
    if (texts.length === 0) return;
    const folded = fold(texts.join(' | '));
    this.extracted['text.hot_water'] = texts.join(' | ');
    const entry = firstEntry(vocabulary.values.hot_water, folded);
    if (entry) this.set('sanitary_heating_device', entry.sanitary_heating_device);
    if (mentionsAny(vocabulary.values.solar_boiler, folded)) this.set('has_solar_boiler', true);
  }

  private readEnvelope() {
    const glazing = this.values('glazing');
    if (glazing.length > 0) {
      this.extracted['text.glazing'] = glazing.join(' | ');
      const folded = fold(glazing.join(' | '));
      const found = vocabulary.values.glazing.filter((e) => mentionsAny(e.words, folded));
      // Several kinds of glass: the first listed (best) decides too much; the certificate's first mention is the main one.
      const byPosition = found
        .map((e) => ({ e, at: Math.min(...e.words.map((w) => folded.search(wordPattern(w, ''))).filter((i) => i >= 0)) }))
        .sort((a, b) => a.at - b.at);
      if (byPosition[0]) {
        this.set('window_glazing_type', byPosition[0].e.window_glazing_type);
        if (byPosition.length > 1) {
          this.flag(
            'window_glazing_type',
            'MIXED_GLAZING',
            `the EPC document lists several kinds of glazing (${byPosition.map((x) => x.e.window_glazing_type).join(', ')}); the first listed was kept`,
          );
        }
      }
    }
    const roofTypes = new Set<'INCLINED' | 'FLAT'>();
    const cavity = this.values('insulation.cavity_wall');
    if (cavity.length > 0) {
      this.extracted['text.insulation.cavity_wall'] = cavity.join(' | ');
      this.set('has_cavity_wall', true);
      const level = this.insulationLevel(fold(cavity.join(' | ')), 'wall', 'has_cavity_wall_insulation');
      if (level !== undefined) this.set('has_cavity_wall_insulation', level !== 'NONE');
    }
    for (const [key, field] of INSULATION_TARGETS) {
      const texts = this.values(key);
      if (texts.length === 0) continue;
      this.extracted[`text.${key}`] = texts.join(' | ');
      const joined = fold(texts.join(' | '));
      const target: LevelField = key === 'insulation.roof' && wordPattern('plat', '').test(joined) ? 'flat_roof_insulation_type' : field;
      if (key === 'insulation.inclined_roof') roofTypes.add('INCLINED');
      if (key === 'insulation.flat_roof') roofTypes.add('FLAT');
      if (key === 'insulation.floor_above_crawl_space') this.set('basement_type', 'CRAWL_SPACE');
      const element = target.includes('roof') ? 'roof' : target.includes('wall') ? 'wall' : 'floor';
      const level = this.insulationLevel(joined, element, target);
      if (level !== undefined && this.fields[target] === undefined) this.set(target, level);
    }
    if (roofTypes.size > 0 && this.fields.roof_type === undefined)
      this.set('roof_type', roofTypes.size === 2 ? 'MIXED' : [...roofTypes][0]!);
  }

  /** The insulation level a description states: an R, a U, a thickness, or the words "not insulated" / "insulated". */
  private insulationLevel(folded: string, element: 'roof' | 'wall' | 'floor', field: string): InsulationLevel | undefined {
    const words = vocabulary.values.insulation;
    if (mentionsAny(vocabulary.values.unknown, folded)) return undefined;
    const r = numberAfter(folded, words.r_value_words);
    if (r !== undefined) return levelOfR(r);
    const u = numberAfter(folded, words.u_value_words);
    if (u !== undefined && u > 0) return levelOfU(element, u);
    const thickness = /(\d+(?:[.,]\d+)?)\s*(cm|mm)(?![a-z])/.exec(folded);
    if (thickness && !mentionsAny(words.none, folded)) {
      const metres = parseDutchNumber(thickness[1]!)! / (thickness[2] === 'mm' ? 1000 : 100);
      return levelOfR(metres / words.lambda_w_per_mk);
    }
    if (mentionsAny(words.none, folded)) return 'NONE';
    if (mentionsAny(words.insulated, folded)) {
      this.flag(
        field,
        'INSULATION_LEVEL_ASSUMED',
        `the EPC document says the ${element} is insulated without a thickness, R- or U-value; ${words.level_when_only_insulated} was assumed`,
      );
      return words.level_when_only_insulated;
    }
    return undefined;
  }

  private readRenewablesAndVentilation() {
    const pv = this.values('solar_panels');
    if (pv.length > 0) {
      const folded = fold(pv.join(' | '));
      this.extracted['text.solar_panels'] = pv.join(' | ');
      const kwp = /(\d+(?:[.,]\d+)?)\s*kwp(?![a-z])/.exec(folded);
      const peak = kwp ? parseDutchNumber(kwp[1]!) : undefined;
      if (mentionsAny(vocabulary.values.no, folded) && !peak) this.set('has_solar_panels', false);
      else if (peak || mentionsAny(vocabulary.values.yes, folded)) {
        this.set('has_solar_panels', true);
        if (peak) this.set('solar_panels_kwp', peak);
      }
    }
    const solarBoiler = this.values('solar_boiler');
    if (solarBoiler.length > 0 && this.fields.has_solar_boiler === undefined) {
      const folded = fold(solarBoiler.join(' | '));
      if (mentionsAny(vocabulary.values.no, folded)) this.set('has_solar_boiler', false);
      else if (mentionsAny(vocabulary.values.yes, folded)) this.set('has_solar_boiler', true);
    }
    const ventilation = this.values('ventilation');
    if (ventilation.length > 0) {
      this.extracted['text.ventilation'] = ventilation.join(' | ');
      const entry = firstEntry(vocabulary.values.ventilation, fold(ventilation.join(' | ')));
      if (entry) this.set('ventilation_type', entry.ventilation_type);
    }
  }
}

type LevelField =
  | 'inclined_roof_insulation_type'
  | 'flat_roof_insulation_type'
  | 'outer_wall_insulation_type'
  | 'solid_ground_floor_insulation_type'
  | 'floor_above_basement_insulation_type';

/** Which property field each envelope element of the certificate fills; more specific elements first. */
const INSULATION_TARGETS: ReadonlyArray<[FieldKey, LevelField]> = [
  ['insulation.inclined_roof', 'inclined_roof_insulation_type'],
  ['insulation.flat_roof', 'flat_roof_insulation_type'],
  ['insulation.roof', 'inclined_roof_insulation_type'],
  ['insulation.wall', 'outer_wall_insulation_type'],
  ['insulation.floor_above_basement', 'floor_above_basement_insulation_type'],
  ['insulation.floor_above_crawl_space', 'floor_above_basement_insulation_type'],
  ['insulation.floor', 'solid_ground_floor_insulation_type'],
];

function compatible(type: HeatingType, device: HeatingDevice): boolean {
  const allowed = consistency.devices_by_heating_type[type];
  return Array.isArray(allowed) && allowed.includes(device);
}

/** The level whose added R (envelope.json) lies nearest to the stated R. */
function levelOfR(r: number): InsulationLevel {
  const levels = Object.entries(envelope.insulation_levels.r_added_m2k_per_w) as [InsulationLevel, number][];
  let best = levels[0]!;
  for (const entry of levels) if (Math.abs(entry[1] - r) < Math.abs(best[1] - r)) best = entry;
  return best[0];
}
