import { describe, expect, it } from 'vitest';
import { errorBody, formatIssues } from './errors.ts';
import { CreateEstateBody } from './estates.ts';
import { TrajectoryRequest } from './trajectory-request.ts';

const messagesFor = (value: unknown) => {
  const result = TrajectoryRequest.safeParse(value, { reportInput: true });
  return result.success ? [] : formatIssues(result.error.issues);
};

describe('error messages name the field in plain language', () => {
  it('tells a missing field from a wrong one', () => {
    expect(messagesFor({ year_built: 'x', habitable_space_m2: 0, zip_code: '9000', country: 'DE', foo: 1 }).sort()).toEqual([
      'country must be one of "BE", "NL"',
      'estate_format is required',
      'foo is not an allowed field',
      'habitable_space_m2 must be >= 1',
      'year_built must be a number',
    ]);
  });

  it('names nested fields and URL rules', () => {
    expect(
      messagesFor({
        year_built: 1960,
        estate_format: 'OPEN',
        habitable_space_m2: 100,
        zip_code: '9000',
        country: 'BE',
        webhook_url: 'ftp://x',
        eco_facilities: ['SOLAR_PANELS', 'JACUZZI'],
      }),
    ).toEqual([
      'eco_facilities.1 must be one of "SOLAR_PANELS", "SOLAR_BOILER", "HEAT_PUMP", "HOME_BATTERY", "RAINWATER_TANK", "VENTILATION_C", "VENTILATION_D", "GREEN_ROOF", "EV_CHARGER"',
      'webhook_url must be an absolute http(s) URL',
    ]);
  });

  it('reports a value of the wrong type once, without length rules meant for the right type', () => {
    const result = CreateEstateBody.safeParse({ energy_context: { eco_facilities: 'SOLAR_PANELS' } }, { reportInput: true });
    expect(result.success ? [] : formatIssues(result.error.issues)).toEqual(['energy_context.eco_facilities must be an array']);
  });

  it('keeps 401, 403 and 500 bodies bare', () => {
    expect(errorBody(401, ['secret detail'])).toEqual({ statusCode: 401, error: 'Unauthorized' });
    expect(errorBody(500)).toEqual({ statusCode: 500, error: 'Internal Server Error' });
    expect(errorBody(422, ['x'])).toEqual({ statusCode: 422, error: 'Unprocessable Entity', message: ['x'] });
  });
});
