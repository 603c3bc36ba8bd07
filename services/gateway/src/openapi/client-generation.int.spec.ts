import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { refsOf } from './schemas.ts';
import { servedDocument } from './testing.ts';

/**
 * What an integrator does first: take `/openapi.json` to a validator and a client generator, then
 * write the integration against the generated types. The sample (`client-sample/integration.ts`)
 * is written with the interface's names: a token from the headers, an estate with its address and
 * energy context, a roof, a trajectory job polled to its metadata, the overview, the grants, a
 * report in nl-BE, the renovations page by page and a verified webhook.
 */
const SAMPLE = resolve(dirname(fileURLToPath(import.meta.url)), '../../client-sample/integration.ts');
const GENERATED = join(dirname(SAMPLE), 'renopath-api.d.ts');

let document: Record<string, unknown>;
let types: string;

beforeAll(async () => {
  document = await servedDocument();
  types = astToString(await openapiTS(structuredClone(document) as never));
}, 60_000);

/** Type-checks the sample (or a changed text of it) against the generated types; the diagnostics as text. */
function typeCheck(sample = readFileSync(SAMPLE, 'utf8')): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    lib: ['lib.es2022.d.ts'],
  };
  const host = ts.createCompilerHost(options);
  const texts = new Map([
    [SAMPLE, sample],
    [GENERATED, types],
  ]);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    const text = texts.get(resolve(name));
    return text !== undefined ? ts.createSourceFile(name, text, language) : getSourceFile(name, language, ...rest);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => texts.has(resolve(name)) || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => texts.get(resolve(name)) ?? readFile(name);
  const program = ts.createProgram([SAMPLE], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where =
      d.file && d.start !== undefined
        ? `${d.file.fileName.split('/').pop()}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} `
        : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
}

describe('a client generated from /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document without a dangling reference (swagger-parser)', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
    const dangling = [...new Set(refsOf(document))].filter((ref) => {
      let node: unknown = document;
      for (const part of ref.replace(/^#\//, '').split('/'))
        node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      return !ref.startsWith('#/') || node === undefined;
    });
    expect(dangling).toEqual([]);
  });

  it('passes Redocly lint (recommended rules) with no error', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
    expect(problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('generates types the integration sample type-checks against', () => {
    expect(types).toContain('export interface paths');
    expect(typeCheck()).toEqual([]);
  }, 60_000);

  it('would catch a field the sample names wrongly (the check can fail)', () => {
    const wrong = readFileSync(SAMPLE, 'utf8').replace('estate.address.zip_code', 'estate.address.zipcode');
    expect(typeCheck(wrong).join('\n')).toMatch(/zipcode/);
  }, 60_000);
});
