import { describe, expect, it } from 'vitest';
import { detectRegion, isPostalCodeOf, scaleOfRegion } from './region.ts';

describe('detectRegion on the postal-code edges (data/labels.json regions)', () => {
  const cases: [string, string][] = [
    ['1000', 'BRUSSELS'],
    ['1299', 'BRUSSELS'],
    ['1300', 'WALLONIA'],
    ['1499', 'WALLONIA'],
    ['1500', 'FLANDERS'],
    ['3999', 'FLANDERS'],
    ['4000', 'WALLONIA'],
    ['7999', 'WALLONIA'],
    ['8000', 'FLANDERS'],
    ['9999', 'FLANDERS'],
  ];
  for (const [zip, region] of cases) {
    it(`BE ${zip} -> ${region}`, () => expect(detectRegion(zip, 'BE')).toBe(region));
  }

  it('a Dutch 1234 AB code is NETHERLANDS, with or without the space and in lower case', () => {
    expect(detectRegion('3731 AB')).toBe('NETHERLANDS');
    expect(detectRegion('3731AB', 'NL')).toBe('NETHERLANDS');
    expect(detectRegion('1011 ab', 'NL')).toBe('NETHERLANDS');
  });

  it('with country NL a bare 4-digit code is the numeric part of a Dutch postcode', () => {
    expect(detectRegion('3731', 'NL')).toBe('NETHERLANDS');
  });

  it('rejects codes that are not postal codes of the country', () => {
    expect(detectRegion('0999', 'BE')).toBeNull();
    expect(detectRegion('123', 'BE')).toBeNull();
    expect(detectRegion('12345', 'BE')).toBeNull();
    expect(detectRegion('3731 AB', 'BE')).toBeNull();
    expect(detectRegion('B-1000', 'BE')).toBeNull();
  });

  it('maps every region to its scale', () => {
    expect(scaleOfRegion('FLANDERS')).toBe('EPC_FLANDERS');
    expect(scaleOfRegion('BRUSSELS')).toBe('EPC_BRUSSELS');
    expect(scaleOfRegion('WALLONIA')).toBe('EPC_WALLONIA');
    expect(scaleOfRegion('NETHERLANDS')).toBe('ENERGY_LABEL_NL');
  });

  it('checks postal-code format per country', () => {
    expect(isPostalCodeOf('1000', 'BE')).toBe(true);
    expect(isPostalCodeOf('0999', 'BE')).toBe(false);
    expect(isPostalCodeOf('1234 AB', 'NL')).toBe(true);
    expect(isPostalCodeOf('1234', 'NL')).toBe(false);
    expect(isPostalCodeOf('0123 AB', 'NL')).toBe(false);
  });
});
