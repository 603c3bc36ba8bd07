import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, 'evaluate.ts');

/** One run of the CLI: a process start with tsx, which on a busy machine takes many times its quiet second. */
const PROCESS_MS = 120_000;
function run(stdin: string) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', cli], { input: stdin, encoding: 'utf8', cwd: here, timeout: PROCESS_MS });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('energy:evaluate CLI', { timeout: PROCESS_MS * 2 }, () => {
  it('evaluates a good array and puts an error in place of each bad element', () => {
    const good = {
      year_built: 1960,
      estate_format: 'CLOSED',
      habitable_space_m2: 120,
      zip_code: '9000',
      country: 'BE',
      title: 'Rijhuis',
      external_id: 'crm-17',
      webhook_url: 'https://example.com/hook',
      street: 'Kerkstraat',
      house_number: '12',
      place: 'Gent',
      price: 325000,
    };
    const schemaBad = { year_built: 1960, estate_format: 'ROW', habitable_space_m2: 0, zip_code: '9000', country: 'BE' };
    const inconsistent = { ...good, heating_type: 'FUEL_OIL', heating_device: 'AIR_WATER_HEAT_PUMP' };
    const nl = { year_built: 1980, estate_format: 'SEMI_OPEN', habitable_space_m2: 110, zip_code: '3731 AB', country: 'NL' };
    const r = run(JSON.stringify([good, schemaBad, inconsistent, nl]));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, any>[];
    expect(out).toHaveLength(4);
    expect(out[0]!.region).toBe('FLANDERS');
    expect(out[0]!.energy_efficiency_type).toBe('EPC_FLANDERS');
    expect(typeof out[0]!.epc_score).toBe('number');
    expect(out[0]!.geometry.envelope.wall_m2).toBeGreaterThan(0);
    expect(out[0]!.heat_loss.h_transmission_w_per_k).toBeGreaterThan(0);
    expect(out[0]!.delivered_energy_kwh_per_year.GAS).toBeGreaterThan(0);
    expect(out[0]!.assumed).not.toHaveProperty('title');
    expect(out[0]!.data_quality.sources.year_built).toBe('INPUT');
    expect(out[1]!.error.code).toBe('INVALID_REQUEST');
    expect(out[1]!.error.messages.join(' ')).toContain('estate_format');
    expect(out[2]!.error).toEqual({
      code: 'INCONSISTENT_REQUEST',
      messages: ['heating_device AIR_WATER_HEAT_PUMP is not compatible with heating_type FUEL_OIL'],
    });
    expect(out[3]!.energy_efficiency_type).toBe('ENERGY_LABEL_NL');
  });

  it('rejects invalid JSON with a message on stderr and exit code 1', () => {
    const r = run('[{"year_built": 19');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('invalid JSON on stdin');
  });
});
