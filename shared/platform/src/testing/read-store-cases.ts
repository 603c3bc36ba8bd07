import type { Filter } from '../ports/read-store.ts';

/**
 * The documents and filters the read-store contract holds every adapter to, shared with the tests of
 * evaluators that must agree with the port (MongoDB's in-memory matcher of a transaction's writes).
 */
export interface Estate {
  id: string;
  name: string;
  region: string;
  year: number;
  area: number;
  heated: boolean;
  owner: { org: string; city: string };
  label?: string | null;
}

export const ESTATES: Estate[] = [
  { id: 'e1', name: 'Alpha', region: 'BE', year: 1970, area: 120.5, heated: true, owner: { org: 'o1', city: 'Gent' }, label: null },
  { id: 'e2', name: 'Bravo', region: 'NL', year: 1995, area: 80, heated: false, owner: { org: 'o2', city: 'Utrecht' } },
  { id: 'e3', name: 'Charlie', region: 'BE', year: 2005, area: 95, heated: true, owner: { org: 'o1', city: 'Antwerpen' }, label: 'B' },
  { id: 'e4', name: 'Delta', region: 'BE', year: 1995, area: 200, heated: false, owner: { org: 'o3', city: 'Gent' }, label: 'D' },
  { id: 'e5', name: 'Echo', region: 'NL', year: 2020, area: 60, heated: true, owner: { org: 'o2', city: 'Delft' } },
  { id: 'e6', name: 'Foxtrot', region: 'BE', year: 1930, area: 150, heated: true, owner: { org: 'o3', city: 'Brugge' }, label: 'F' },
];

/** A filter, and which documents it must match. */
export const FILTER_CASES: Array<[string, Filter, (e: Estate) => boolean]> = [
  ['equality on a string', { region: 'BE' }, (e) => e.region === 'BE'],
  ['equality on a number', { year: 1995 }, (e) => e.year === 1995],
  ['equality on a boolean', { heated: false }, (e) => e.heated === false],
  ['null, which also matches a missing field', { label: null }, (e) => e.label == null],
  ['a dotted field', { 'owner.city': 'Gent' }, (e) => e.owner.city === 'Gent'],
  ['$in', { 'owner.org': { $in: ['o2', 'o3'] } }, (e) => ['o2', 'o3'].includes(e.owner.org)],
  ['an empty $in', { region: { $in: [] } }, () => false],
  ['$ne, which also matches a missing field', { label: { $ne: 'D' } }, (e) => e.label !== 'D'],
  ['a number range', { year: { $gte: 1995, $lt: 2020 } }, (e) => e.year >= 1995 && e.year < 2020],
  ['a fractional bound', { area: { $gt: 95.5 } }, (e) => e.area > 95.5],
  ['a string range', { name: { $gt: 'Bravo', $lte: 'Delta' } }, (e) => e.name > 'Bravo' && e.name <= 'Delta'],
  ['several fields together', { region: 'BE', year: { $gt: 1960 }, heated: true }, (e) => e.region === 'BE' && e.year > 1960 && e.heated],
];
