import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './stack.ts';

/**
 * Job creation refuses bad requests as docs/http-contract.md "Trajectory jobs" say: 406 for per-property violations,
 * 422 for business rules, one message per problem naming the field. Bodies use the interface's names.
 */
let stack: Stack;
let api: ReturnType<Stack['as']>;
const URL = '/v1/calculation-jobs/suggested-renovation-trajectory-calculation';
const base = { year_built: 1960, estate_format: 'SEMI_OPEN', habitable_space_m2: 150, zip_code: '9000', country: 'BE' };

beforeAll(async () => {
  stack = await startStack();
  api = stack.as(await stack.token());
});
afterAll(async () => stack?.close());

async function refused(body: unknown, status: 406 | 422) {
  const res = await api.post(URL, body);
  expect(res.statusCode, res.body).toBe(status);
  const json = res.json();
  expect(json.statusCode).toBe(status);
  expect(json.error).toBe(status === 406 ? 'Not Acceptable' : 'Unprocessable Entity');
  expect(Array.isArray(json.message)).toBe(true);
  return json.message as string[];
}

describe('406: per-property violations (docs/http-contract.md "Trajectory jobs")', () => {
  it.each(['year_built', 'estate_format', 'habitable_space_m2', 'zip_code', 'country'])('a missing required %s', async (field) => {
    const { [field]: _gone, ...body } = base as Record<string, unknown>;
    const message = await refused(body, 406);
    expect(message.some((m) => m.includes(field))).toBe(true);
  });

  it('an empty body lists each of the five required fields', async () => {
    const message = await refused({}, 406);
    for (const f of ['year_built', 'estate_format', 'habitable_space_m2', 'zip_code', 'country']) expect(message.join('\n')).toContain(f);
    expect(message.length).toBe(5);
  });

  it('wrong types, unknown enum values and numbers below 1, one message each', async () => {
    const message = await refused(
      { ...base, year_built: '1960', estate_format: 'DETACHED', habitable_space_m2: 0, inclined_roof_pane_surface: 0.5 },
      406,
    );
    expect(message).toHaveLength(4);
    for (const f of ['year_built', 'estate_format', 'habitable_space_m2', 'inclined_roof_pane_surface'])
      expect(message.some((m) => m.startsWith(f))).toBe(true);
  });

  it('an unknown property', async () => {
    const message = await refused({ ...base, address: 'Veldstraat 1' }, 406);
    expect(message.join()).toContain('address');
  });

  it.each(['webhook_url', 'epc_url'])('%s that is not an absolute http(s) URL', async (field) => {
    const message = await refused({ ...base, [field]: 'ftp://example.com/x' }, 406);
    expect(message.join()).toContain(field);
    await refused({ ...base, [field]: '/relative/path' }, 406);
  });

  it('a country outside BE and NL', async () => {
    await refused({ ...base, country: 'FR' }, 406);
  });
});

describe('422: business rules (docs/http-contract.md "Trajectory jobs")', () => {
  it('a flat roof with an inclined roof field, and an inclined roof with a flat roof field', async () => {
    expect((await refused({ ...base, roof_type: 'FLAT', inclined_roof_pane_surface: 60 }, 422)).join()).toContain(
      'inclined_roof_pane_surface',
    );
    expect((await refused({ ...base, roof_type: 'INCLINED', flat_roof_insulation_type: 'NONE' }, 422)).join()).toContain(
      'flat_roof_insulation_type',
    );
  });

  it('a heating device that does not go with the heating type', async () => {
    await refused({ ...base, heating_type: 'FUEL_OIL', heating_device: 'AIR_WATER_HEAT_PUMP' }, 422);
    await refused({ ...base, heating_type: 'GAS', heating_device: 'DIRECT_ACCUMULATION' }, 422);
    await refused({ ...base, heating_type: 'NONE', heating_device: 'STOVE' }, 422);
  });

  it('no cavity wall with a cavity width or cavity insulation', async () => {
    const message = await refused(
      { ...base, has_cavity_wall: false, cavity_wall_width: 'LESS_THAN_5_CM', has_cavity_wall_insulation: true },
      422,
    );
    expect(message).toHaveLength(2);
  });

  it('no basement with basement fields', async () => {
    const message = await refused(
      { ...base, basement_type: 'NONE', basement_ceiling_surface: 40, floor_above_basement_insulation_type: 'MODERATE' },
      422,
    );
    expect(message).toHaveLength(2);
  });

  it('a postal code that is not one of the country', async () => {
    expect((await refused({ ...base, zip_code: '1234 AB' }, 422)).join()).toContain('zip_code');
    expect((await refused({ ...base, country: 'NL', zip_code: '900' }, 422)).join()).toContain('zip_code');
    expect((await refused({ ...base, country: 'NL', zip_code: '3731 ABC' }, 422)).join()).toContain('zip_code');
  });

  it('a year in the future or before 1500', async () => {
    await refused({ ...base, year_built: new Date().getUTCFullYear() + 2 }, 422);
    await refused({ ...base, year_built: 1200 }, 422);
  });

  it('a roof pane surface over 10 times the habitable space', async () => {
    await refused({ ...base, inclined_roof_pane_surface: 1501 }, 422);
  });

  it('every rule broken at once gives one message per problem', async () => {
    const message = await refused(
      {
        ...base,
        roof_type: 'FLAT',
        inclined_roof_pane_surface: 60,
        heating_type: 'FUEL_OIL',
        heating_device: 'AIR_WATER_HEAT_PUMP',
        zip_code: '12',
      },
      422,
    );
    expect(message.length).toBe(3);
  });
});

describe('who may create jobs', () => {
  it('401 without a token, 403 without the calculations scope', async () => {
    const res = await stack.app.inject({ method: 'POST', url: URL, payload: base });
    expect(res.statusCode).toBe(401);
    const token = await stack.clientToken(stack.bootstrap.user_id, ['estates']);
    const res403 = await stack.as(token).post(URL, base);
    expect(res403.statusCode).toBe(403);
    expect(Object.keys(res403.json()).sort()).toEqual(['error', 'statusCode']);
  });
});

describe('a refused request writes nothing', () => {
  it('neither a 406 nor a 422 leaves an estate behind (the estate is described only after the checks)', async () => {
    const ids = async () => ((await api.get('/estates')).json() as Array<{ id: string }>).map((e) => e.id).sort();
    const before = await ids();
    await refused({ ...base, external_id: 'refused-1', year_built: 'old' }, 406);
    await refused({ ...base, external_id: 'refused-2', roof_type: 'FLAT', inclined_roof_pane_surface: 60 }, 422);
    expect(await ids()).toEqual(before);
    // The same body without the broken rule makes the job and its estate.
    const made = await api.post(URL, { ...base, external_id: 'refused-2' });
    expect(made.statusCode, made.body).toBe(200);
    expect(await ids()).toEqual([...before, made.json().estate_id].sort());
  });
});
