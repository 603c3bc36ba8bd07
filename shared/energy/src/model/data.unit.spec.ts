import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allCells } from './data.ts';

const dataDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'data');

describe('every figure is data with its source and year (data files carry their sources)', () => {
  for (const file of readdirSync(dataDir).filter((f) => f.endsWith('.json'))) {
    it(`${file}: the file or each of its tables names a source and a year`, () => {
      const json = JSON.parse(readFileSync(join(dataDir, file), 'utf8')) as Record<string, unknown>;
      if (typeof json.source === 'string') {
        expect(typeof json.year).toBe('number');
        return;
      }
      const tables = Object.entries(json).filter(([, v]) => v !== null && typeof v === 'object' && !Array.isArray(v));
      expect(tables.length).toBeGreaterThan(0);
      for (const [name, table] of tables) {
        const t = table as Record<string, unknown>;
        expect(typeof t.source, `${file} ${name}`).toBe('string');
        expect(typeof t.year, `${file} ${name}`).toBe('number');
      }
    });
  }

  it('has a typology cell for every country, period and format, with consistent levels', () => {
    const cells = allCells();
    expect(cells).toHaveLength(3 * 6 + 3 * 7);
    for (const c of cells) {
      for (const e of ['roof', 'wall', 'floor'] as const) expect(c.bare[e]).toBeGreaterThanOrEqual(c.u[e] - 1e-9);
      expect(c.aRef).toBeGreaterThan(50);
    }
  });
});
