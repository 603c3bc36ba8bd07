import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as contracts from './index.ts';
import { INTERFACE_SPEC, bodyOf, exampleValue, setPath, zodHasPath } from './testing/interface-spec.ts';

/**
 * The interface is binding: every request a client can build from its tables is accepted by our
 * request schemas, and every field it documents is declared by our reply schemas. The list lives in
 * `conformance/interface.json`; a renamed, retyped or dropped field fails here.
 */

const schemas = contracts as unknown as Record<string, z.ZodType | undefined>;

/** Request entries whose body the interface gives for POST and PATCH alike: both schemas must take it. */
const ALSO_CHECK: Record<string, string[]> = {
  CreateRoofBody: ['UpdateRoofBody'],
  CreateFloorBody: ['UpdateFloorBody'],
  CreateRoomBody: ['UpdateRoomBody'],
  CreateStaircaseBody: ['UpdateStaircaseBody'],
  RenovationItemBody: ['UpdateRenovationItemBody'],
};

const schemaNamed = (name: string): z.ZodType => {
  const schema = schemas[name];
  if (!schema) throw new Error(`shared/contracts exports no schema ${name}`);
  return schema;
};
const problems = (result: z.ZodSafeParseResult<unknown>) =>
  result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('Interface conformance: request schemas', () => {
  for (const [name, request] of Object.entries(INTERFACE_SPEC.requests)) {
    for (const schemaName of [name, ...(ALSO_CHECK[name] ?? [])]) {
      describe(`${schemaName} (${request.title})`, () => {
        const schema = schemaNamed(schemaName);

        it('accepts a body with every documented field', () => {
          expect(problems(schema.safeParse(bodyOf(request, INTERFACE_SPEC.enums)))).toEqual([]);
        });

        it('accepts every documented enum value of every field, one at a time', () => {
          const refused: string[] = [];
          for (const [path, field] of Object.entries(request.fields)) {
            const values = field.enum ? INTERFACE_SPEC.enums[field.enum] : undefined;
            if (!values) continue;
            for (const value of values) {
              const body = setPath(bodyOf(request, INTERFACE_SPEC.enums, []), path, field.type === 'string[]' ? [value] : value);
              const issues = problems(schema.safeParse(body));
              if (issues.length) refused.push(`${path}=${value}: ${issues.join('; ')}`);
            }
          }
          expect(refused).toEqual([]);
        });

        it('accepts each documented field on its own (with the required ones)', () => {
          const refused = Object.keys(request.fields).flatMap((path) =>
            problems(schema.safeParse(bodyOf(request, INTERFACE_SPEC.enums, [path]))).map((p) => `${path}: ${p}`),
          );
          expect(refused).toEqual([]);
        });

        it('refuses a field it does not know (so a renamed field cannot pass unnoticed)', () => {
          const body = { ...bodyOf(request, INTERFACE_SPEC.enums), not_an_interface_field: 1 };
          expect(schema.safeParse(body).success).toBe(false);
        });

        const minimums = Object.entries(request.fields).filter(([, f]) => f.min !== undefined);
        if (minimums.length && schemaName === name) {
          it('refuses numbers below their documented minimum', () => {
            const accepted = minimums
              .filter(([path, f]) => schema.safeParse(setPath(bodyOf(request, INTERFACE_SPEC.enums), path, f.min! - 0.5)).success)
              .map(([path]) => path);
            expect(accepted).toEqual([]);
          });
        }

        const required = Object.entries(request.fields).filter(([, f]) => f.required);
        if (required.length && schemaName === name) {
          it('refuses a body without a required field', () => {
            const accepted = required
              .filter(([path]) => {
                const body = bodyOf(request, INTERFACE_SPEC.enums);
                const keys = path.split('.');
                let node = body as Record<string, unknown>;
                for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
                delete node[keys.at(-1)!];
                return schema.safeParse(body).success;
              })
              .map(([path]) => path);
            expect(accepted).toEqual([]);
          });
        }
      });
    }
  }

  it('every example value in the list is one the list allows', () => {
    const wrong = Object.values(INTERFACE_SPEC.requests).flatMap((r) =>
      Object.entries(r.fields)
        .filter(
          ([, f]) =>
            f.enum &&
            f.type !== 'string[]' &&
            f.example !== undefined &&
            !INTERFACE_SPEC.enums[f.enum]!.includes(exampleValue(f, INTERFACE_SPEC.enums) as string),
        )
        .map(([path]) => path),
    );
    expect(wrong).toEqual([]);
  });
});

describe('Interface conformance: reply schemas', () => {
  for (const [name, fields] of Object.entries(INTERFACE_SPEC.replies)) {
    it(`${name} declares every documented field`, () => {
      const schema = schemaNamed(name);
      expect(fields.filter((path) => !zodHasPath(schema, path))).toEqual([]);
    });
  }
  for (const [name, omitted] of Object.entries(INTERFACE_SPEC.list_omits)) {
    it(`${name} omits what the interface says the list read omits`, () => {
      const schema = schemaNamed(name);
      expect(omitted.filter((path) => zodHasPath(schema, path))).toEqual([]);
    });
  }

  it('the walker sees a missing field (guards the check above)', () => {
    expect(zodHasPath(schemaNamed('User'), 'email_address')).toBe(true);
    expect(zodHasPath(schemaNamed('User'), 'e_mail')).toBe(false);
    expect(zodHasPath(schemaNamed('RenovationSearchPage'), 'data[].estate_geo_address.place')).toBe(true);
    expect(zodHasPath(schemaNamed('RenovationSearchPage'), 'data[].estate_geo_address.city')).toBe(false);
  });
});

describe('Interface conformance: enums', () => {
  const enumOf = (schema: z.ZodType) => (schema as unknown as { options: string[] }).options;
  const CONTRACT_ENUMS: Record<string, z.ZodType> = {
    country: contracts.Country,
    estate_format: contracts.EstateFormat,
    roof_type: contracts.RoofType,
    insulation: contracts.InsulationLevel,
    floor_above_basement_insulation: contracts.FloorAboveBasementInsulation,
    attic_usage: contracts.AtticUsage,
    heating_type: contracts.HeatingType,
    heating_device: contracts.HeatingDevice,
    sanitary_heating_device: contracts.SanitaryHeatingDevice,
    installation_age: contracts.InstallationAge,
    basement_type: contracts.BasementType,
    basement_ceiling_height: contracts.BasementCeilingHeight,
    cavity_wall_width: contracts.CavityWallWidth,
    window_glazing_type: contracts.GlazingType,
    calculation_job_type: contracts.CalculationJobType,
    calculation_job_status: contracts.CalculationJobStatus,
    report_language: contracts.ReportLanguage,
    sort_by: contracts.SortBy,
    sort_order: contracts.SortOrder,
  };
  for (const [name, values] of Object.entries(INTERFACE_SPEC.enums)) {
    const schema = CONTRACT_ENUMS[name];
    if (!schema) continue;
    it(`${name}: every interface value is in the contract's enum`, () => {
      expect(values.filter((v) => !enumOf(schema).includes(v))).toEqual([]);
    });
  }
});
