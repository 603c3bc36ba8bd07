import { describe, expect, it } from 'vitest';
import { regionOf } from './directory.projection.ts';

describe('organization region (the interface: read-only, derived)', () => {
  it('follows the Belgian postal-code ranges at their edges', () => {
    const cases: Array<[string, string]> = [
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
    for (const [zipcode, region] of cases) expect([zipcode, regionOf('BE', zipcode)]).toEqual([zipcode, region]);
  });

  it('is NETHERLANDS for a Dutch organization, and null when a Belgian one has no (valid) zipcode', () => {
    expect(regionOf('NL', '1012 AB')).toBe('NETHERLANDS');
    expect(regionOf('NL', null)).toBe('NETHERLANDS');
    expect(regionOf('BE', null)).toBeNull();
    expect(regionOf('BE', '1012 AB')).toBeNull();
  });
});
