import { PropertyDescription } from '@renopath/contracts';
import { describe, expect, it } from 'vitest';
import { parseDutchNumber, parseEpcDocument } from './parse.ts';
import { dutchLabelPages, flemishEpcPages, textOf } from './testing.ts';

const today = new Date('2026-01-15T10:00:00Z');
const codes = (flags: { code: string }[]) => flags.map((f) => f.code);

describe('parseEpcDocument: a Flemish EPC', () => {
  const parsed = parseEpcDocument(textOf(flemishEpcPages()), { today });

  it('is recognised as a Flemish EPC', () => {
    expect(parsed.kind).toBe('EPC_FLANDERS');
  });

  it('maps what the certificate states onto the property fields', () => {
    expect(parsed.fields).toEqual({
      country: 'BE',
      energy_efficiency_score: 345,
      street: 'Kerkstraat',
      house_number: '12',
      house_number_extra: '3',
      zip_code: '9000',
      place: 'Gent',
      year_built: 1975,
      habitable_space_m2: 152.5,
      estate_type: 'HOUSE',
      estate_format: 'SEMI_OPEN',
      heating_type: 'GAS',
      heating_device: 'CONDENSING_BOILER',
      sanitary_heating_device: 'NOT_SEPARATED',
      window_glazing_type: 'DOUBLE_GLAZING',
      has_cavity_wall: true,
      has_cavity_wall_insulation: false,
      // 12 cm of mineral wool is R 3.4: nearest the MODERATE level (R 2.5) of the energy model
      inclined_roof_insulation_type: 'MODERATE',
      roof_type: 'INCLINED',
      outer_wall_insulation_type: 'NONE',
      solid_ground_floor_insulation_type: 'NONE',
      has_solar_panels: true,
      solar_panels_kwp: 4.2,
      has_solar_boiler: false,
      ventilation_type: 'SYSTEM_C',
    });
  });

  it('keeps the label, dates and certificate number beside the fields', () => {
    expect(parsed.extracted).toMatchObject({
      epc_label: 'D',
      epc_score: 345,
      certificate_number: '20240312-0003012345-RES-1',
      issue_date: '2024-03-12',
      valid_until: '2034-03-12',
      year_built: 1975,
    });
  });

  it('gives fields the trajectory request accepts and raises no flag for a complete, consistent certificate', () => {
    expect(PropertyDescription.partial().safeParse(parsed.fields).success).toBe(true);
    expect(parsed.flags).toEqual([]);
  });

  it('flags a certificate without a score', () => {
    const p = parseEpcDocument(textOf(flemishEpcPages({ score: null })), { today });
    expect(p.fields.energy_efficiency_score).toBeUndefined();
    expect(p.flags).toContainEqual(expect.objectContaining({ field: 'energy_efficiency_score', code: 'MISSING_SCORE' }));
  });

  it('flags a certificate without a label', () => {
    const p = parseEpcDocument(textOf(flemishEpcPages({ label: null })), { today });
    expect(p.flags).toContainEqual(expect.objectContaining({ field: 'epc_label', code: 'MISSING_LABEL' }));
  });

  it('flags a score outside the band of the stated label, naming the label it belongs to', () => {
    const p = parseEpcDocument(textOf(flemishEpcPages({ score: '345', label: 'B' })), { today });
    const flag = p.flags.find((f) => f.code === 'SCORE_LABEL_MISMATCH');
    expect(flag?.message).toContain('label D');
    expect(p.fields.energy_efficiency_score).toBe(345);
  });

  it('reads the A+ label and a negative score, which agree', () => {
    const p = parseEpcDocument(textOf(flemishEpcPages({ score: '-12', label: 'A+' })), { today });
    expect(p.fields.energy_efficiency_score).toBe(-12);
    expect(p.extracted.epc_label).toBe('A+');
    expect(codes(p.flags)).not.toContain('SCORE_LABEL_MISMATCH');
  });

  it('flags an expired certificate (valid 10 years)', () => {
    const p = parseEpcDocument(textOf(flemishEpcPages({ issued: '03.02.2015', validUntil: null })), { today });
    const flag = p.flags.find((f) => f.code === 'CERTIFICATE_EXPIRED');
    expect(flag?.message).toContain('2025-02-03');
  });

  it('does not flag a certificate issued less than 10 years ago', () => {
    const p = parseEpcDocument(textOf(flemishEpcPages({ issued: '20.01.2016', validUntil: null })), { today });
    expect(codes(p.flags)).not.toContain('CERTIFICATE_EXPIRED');
  });

  it('flags and drops a construction year in the future', () => {
    const p = parseEpcDocument(textOf(flemishEpcPages({ yearBuilt: '2031' })), { today });
    expect(p.fields.year_built).toBeUndefined();
    expect(p.flags).toContainEqual(expect.objectContaining({ field: 'year_built', code: 'YEAR_IN_FUTURE' }));
  });
});

describe('parseEpcDocument: a Dutch energielabel', () => {
  const parsed = parseEpcDocument(textOf(dutchLabelPages()), { today });

  it('maps the label onto the property fields', () => {
    expect(parsed.kind).toBe('ENERGY_LABEL_NL');
    expect(parsed.fields).toEqual({
      country: 'NL',
      energy_efficiency_score: 180.5,
      street: 'Dorpsstraat',
      house_number: '12',
      house_number_extra: 'A',
      zip_code: '1234 AB',
      place: 'Utrecht',
      year_built: 1930,
      habitable_space_m2: 120,
      estate_format: 'CLOSED',
      heating_type: 'GAS',
      heating_device: 'CONDENSING_BOILER',
      sanitary_heating_device: 'NOT_SEPARATED',
      ventilation_type: 'SYSTEM_C',
      inclined_roof_insulation_type: 'MODERATE',
      outer_wall_insulation_type: 'NONE',
      solid_ground_floor_insulation_type: 'STRONG',
      window_glazing_type: 'HR',
      has_solar_panels: false,
    });
    expect(parsed.extracted).toMatchObject({
      epc_label: 'B',
      certificate_number: '0012345678',
      issue_date: '2022-06-15',
      valid_until: '2032-06-15',
    });
    expect(parsed.flags).toEqual([]);
  });

  it('checks the label against the EP2 bands of the Regeling (A+++ up to 50)', () => {
    const p = parseEpcDocument(textOf(dutchLabelPages({ ep2: '40', label: 'A++++' })), { today });
    expect(p.flags.find((f) => f.code === 'SCORE_LABEL_MISMATCH')?.message).toContain('label A+++');
  });

  it('reads an energie-index label of before 2021 without taking it for the EP2 score', () => {
    const p = parseEpcDocument(textOf(dutchLabelPages({ ep2: null, energyIndex: '1,45', label: 'C' })), { today });
    expect(p.fields.energy_efficiency_score).toBeUndefined();
    expect(p.extracted.energy_index).toBe(1.45);
    expect(codes(p.flags)).toContain('OLD_METHOD_ENERGY_INDEX');
    expect(codes(p.flags)).not.toContain('SCORE_LABEL_MISMATCH');
    const wrong = parseEpcDocument(textOf(dutchLabelPages({ ep2: null, energyIndex: '1,45', label: 'A' })), { today });
    expect(codes(wrong.flags)).toContain('SCORE_LABEL_MISMATCH');
  });

  it('flags an expired label by its "geldig tot" date', () => {
    const p = parseEpcDocument(textOf(dutchLabelPages({ registered: '01-02-2014', validUntil: '01-02-2024' })), { today });
    expect(codes(p.flags)).toContain('CERTIFICATE_EXPIRED');
  });
});

describe('parseEpcDocument: other documents and details', () => {
  it('flags a document without text as unreadable', () => {
    const p = parseEpcDocument('  \n ', { today });
    expect(p.kind).toBe('UNKNOWN');
    expect(codes(p.flags)).toEqual(['UNREADABLE_DOCUMENT']);
  });

  it('does not take an invoice for a certificate', () => {
    const p = parseEpcDocument('Factuur 2024-001\nBedrag: 1.250,00 EUR\nVervaldatum: 01.02.2024', { today });
    expect(p.kind).toBe('UNKNOWN');
    expect(p.fields).toEqual({});
  });

  it('recognises heat pumps by their source and keeps device and type compatible', () => {
    const base = textOf(flemishEpcPages())
      .replace('centrale verwarming met een condenserende ketel', 'lucht/water warmtepomp')
      .replace('Energiedrager aardgas', 'Energiedrager elektriciteit');
    const p = parseEpcDocument(base, { today });
    expect(p.fields).toMatchObject({ heating_type: 'HEAT_PUMP', heating_device: 'AIR_WATER_HEAT_PUMP' });
  });

  it('drops a device that cannot run on the stated carrier, with a flag', () => {
    const base = textOf(flemishEpcPages())
      .replace('centrale verwarming met een condenserende ketel', 'accumulatiekachels')
      .replace('Energiedrager aardgas', 'Energiedrager stookolie');
    const p = parseEpcDocument(base, { today });
    expect(p.fields.heating_device).toBe('DIRECT_ACCUMULATION');
    expect(p.fields.heating_type).toBe('ELECTRIC');
    const oil = textOf(flemishEpcPages())
      .replace('centrale verwarming met een condenserende ketel', 'pelletketel')
      .replace('Energiedrager aardgas', 'Energiedrager aardgas');
    const q = parseEpcDocument(oil, { today });
    expect(q.fields.heating_type).toBe('PELLET_FUEL');
  });

  it('reads the odd ways a certificate states values', () => {
    const text = [
      'ENERGIEPRESTATIECERTIFICAAT BESTAANDE WONING',
      'Adres: Lange Nieuwstraat 105, 2000 Antwerpen',
      'Berekende energiescore: 1.020 kWh/(m².jaar)',
      'Label: F',
      'Datum van opmaak: 3 mei 2022',
      'Plat dak: U-waarde 0,24 W/m²K',
      'Gevel: geïsoleerd',
      'Beglazing: hoogrendementsglas en enkel glas',
      'Ventilatie: systeem D met warmteterugwinning',
      'Verwarming: warmtepomp bodem/water',
    ].join('\n');
    const p = parseEpcDocument(text, { today });
    expect(p.kind).toBe('EPC_FLANDERS');
    expect(p.fields).toMatchObject({
      street: 'Lange Nieuwstraat',
      house_number: '105',
      zip_code: '2000',
      place: 'Antwerpen',
      energy_efficiency_score: 1020,
      flat_roof_insulation_type: 'STRONG',
      roof_type: 'FLAT',
      outer_wall_insulation_type: 'MODERATE',
      window_glazing_type: 'HR',
      ventilation_type: 'SYSTEM_D',
      heating_type: 'HEAT_PUMP',
      heating_device: 'GEOTHERMAL_HEAT_PUMP',
    });
    expect(p.extracted.issue_date).toBe('2022-05-03');
    expect(codes(p.flags)).toEqual(expect.arrayContaining(['INSULATION_LEVEL_ASSUMED', 'MIXED_GLAZING', 'NOT_IN_DOCUMENT']));
    expect(codes(p.flags)).not.toContain('SCORE_LABEL_MISMATCH');
  });

  it('reads Dutch and Belgian number formats', () => {
    expect(parseDutchNumber('1.234,5')).toBe(1234.5);
    expect(parseDutchNumber('180,5')).toBe(180.5);
    expect(parseDutchNumber('1.020')).toBe(1020);
    expect(parseDutchNumber('−12')).toBe(-12);
    expect(parseDutchNumber('12.5')).toBe(12.5);
  });
});
