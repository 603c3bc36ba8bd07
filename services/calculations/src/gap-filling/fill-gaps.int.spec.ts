import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { DataSource, PropertyDescription } from '@renopath/contracts';
import { confidenceScore } from '@renopath/energy';
import { fillGaps } from './fill-gaps.ts';
import { httpEnergyEfficiencyProvider, httpGeometryProvider, type HttpProviderOptions } from './http-providers.ts';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface Hit {
  path: string;
  body: unknown;
}
type Answer = (hit: Hit, res: ServerResponse) => void;

/** A provider stand-in on localhost: records every request and answers with `answer`. */
async function provider(answer: Answer) {
  const hits: Hit[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit = { path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') };
      hits.push(hit);
      answer(hit, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

const json =
  (status: number, body: unknown): Answer =>
  (_hit, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
const hang: Answer = () => {};

function options(url: string, extra: Partial<HttpProviderOptions> = {}): HttpProviderOptions {
  return { url, timeoutMs: 2000, ...extra };
}
function geometry(url: string, extra: Partial<HttpProviderOptions> = {}) {
  const p = httpGeometryProvider(options(url, extra));
  closers.push(() => p.close());
  return p;
}
function energy(url: string, extra: Partial<HttpProviderOptions> = {}) {
  const p = httpEnergyEfficiencyProvider(options(url, extra));
  closers.push(() => p.close());
  return p;
}

const home: PropertyDescription = {
  year_built: 1975,
  estate_format: 'SEMI_OPEN',
  habitable_space_m2: 140,
  zip_code: '9000',
  country: 'BE',
  street: 'Veldstraat',
  house_number: '12',
  place: 'Gent',
  heating_type: 'GAS',
  heating_device: 'CONDENSING_BOILER',
  window_glazing_type: 'DOUBLE_GLAZING',
};
const given: Record<string, DataSource> = {};
const MEASURED = {
  building_width: 7.5,
  building_depth: 10.2,
  inclined_roof_pane_surface: 86,
  flat_roof_pane_surface: 0,
  cornice_height: 6.1,
};

describe('fillGaps with LiDAR and the energy-efficiency provider over HTTP', () => {
  it('fills the missing geometry from LiDAR (source LIDAR), which raises the confidence', async () => {
    const lidar = await provider(json(200, MEASURED));
    const result = await fillGaps(home, given, { geometry: geometry(lidar.url) });

    expect(lidar.hits).toEqual([
      { path: '/', body: { street: 'Veldstraat', house_number: '12', zip_code: '9000', place: 'Gent', country: 'BE' } },
    ]);
    expect(result.used).toEqual({ geometry: 'OK', energy: 'NOT_CONFIGURED' });
    expect(result.property).toMatchObject({
      building_width: 7.5,
      building_depth: 10.2,
      inclined_roof_pane_surface: 86,
      cornice_height: 6.1,
    });
    // A roof part of 0 m2 is no part.
    expect(result.property.flat_roof_pane_surface).toBeUndefined();
    expect(result.sources).toEqual({
      building_width: 'LIDAR',
      building_depth: 'LIDAR',
      inclined_roof_pane_surface: 'LIDAR',
      cornice_height: 'LIDAR',
    });
    expect(result.flags).toEqual([]);
    expect(confidenceScore(result.property, result.sources)).toBeGreaterThan(confidenceScore(home, given));
  });

  it('never replaces what the client or the EPC document gave', async () => {
    const lidar = await provider(json(200, MEASURED));
    const described = { ...home, building_width: 9, building_depth: 12, flat_roof_pane_surface: 40 };
    const sources: Record<string, DataSource> = { building_depth: 'EPC_DOCUMENT' };
    const result = await fillGaps(described, sources, { geometry: geometry(lidar.url) });

    expect(result.property).toMatchObject({ building_width: 9, building_depth: 12, flat_roof_pane_surface: 40, cornice_height: 6.1 });
    // The client described the roof (a flat part): LiDAR's inclined part does not join it.
    expect(result.property.inclined_roof_pane_surface).toBeUndefined();
    expect(result.sources).toEqual({ building_depth: 'EPC_DOCUMENT', cornice_height: 'LIDAR' });
  });

  it("fills the current score from the provider (source PROVIDER) on the region's scale, and asks nothing when the score is known", async () => {
    const scores = await provider(json(200, { energy_efficiency_score: 412, energy_efficiency_type: 'EPC_FLANDERS' }));
    const result = await fillGaps(home, given, { energy: energy(scores.url) });

    expect(scores.hits).toEqual([{ path: '/score', body: { property: home } }]);
    expect(result.used).toEqual({ geometry: 'NOT_CONFIGURED', energy: 'OK' });
    expect(result.property.energy_efficiency_score).toBe(412);
    expect(result.sources).toEqual({ energy_efficiency_score: 'PROVIDER' });

    const known = await fillGaps(
      { ...home, energy_efficiency_score: 300 },
      { energy_efficiency_score: 'EPC_DOCUMENT' },
      { energy: energy(scores.url) },
    );
    expect(known.used.energy).toBe('NOT_NEEDED');
    expect(known.property.energy_efficiency_score).toBe(300);
    expect(scores.hits).toHaveLength(1);
  });

  it('a score on another scale is not used', async () => {
    const scores = await provider(json(200, { energy_efficiency_score: 180, energy_efficiency_type: 'ENERGY_LABEL_NL' }));
    const result = await fillGaps(home, given, { energy: energy(scores.url) });
    expect(result.used.energy).toBe('NO_DATA');
    expect(result.property.energy_efficiency_score).toBeUndefined();
    expect(result.flags.map((f) => f.code)).toEqual(['PROVIDER_VALUE_REJECTED']);
  });

  it('both failing (a 500 and an answer slower than the timeout): no data, flags, and the job goes on', async () => {
    const lidar = await provider(json(500, { error: 'down' }));
    const scores = await provider(hang);
    const result = await fillGaps(home, given, { geometry: geometry(lidar.url), energy: energy(scores.url, { timeoutMs: 200 }) });

    expect(result.used).toEqual({ geometry: 'UNAVAILABLE', energy: 'UNAVAILABLE' });
    expect(result.property).toEqual(home);
    expect(result.sources).toEqual({});
    expect(result.flags.map((f) => [f.field, f.code])).toEqual([
      ['building_width', 'PROVIDER_UNAVAILABLE'],
      ['energy_efficiency_score', 'PROVIDER_UNAVAILABLE'],
    ]);
    expect(scores.hits).toHaveLength(1);
  });

  it('a building the service does not know is no data, not a failure', async () => {
    const lidar = await provider(json(404, { error: 'no building' }));
    const result = await fillGaps(home, given, { geometry: geometry(lidar.url) });
    expect(result.used.geometry).toBe('NO_DATA');
    expect(result.flags.map((f) => f.code)).toEqual(['PROVIDER_NO_DATA']);
  });

  it('after repeated failures the circuit is open: no request reaches the provider, and the job still gets its answer', async () => {
    const lidar = await provider(json(503, {}));
    const lidarProvider = geometry(lidar.url, { breaker: { volumeThreshold: 2, errorThresholdPercentage: 50, resetTimeoutMs: 60_000 } });
    for (let i = 0; i < 3; i++) await fillGaps(home, given, { geometry: lidarProvider });
    const reached = lidar.hits.length;
    expect(reached).toBeLessThan(3);

    const result = await fillGaps(home, given, { geometry: lidarProvider });
    expect(lidar.hits).toHaveLength(reached);
    expect(result.used.geometry).toBe('UNAVAILABLE');
    expect(result.flags[0]).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', message: expect.stringMatching(/circuit open/) });
  });

  it('without configuration the typology fills the gaps: no call, no flag', async () => {
    const result = await fillGaps(home, given, {});
    expect(result).toEqual({ property: home, sources: {}, flags: [], used: { geometry: 'NOT_CONFIGURED', energy: 'NOT_CONFIGURED' } });
  });

  it('does not measure an apartment: LiDAR sees its building, not the home', async () => {
    const lidar = await provider(json(200, MEASURED));
    const result = await fillGaps({ ...home, estate_type: 'APARTMENT' }, given, { geometry: geometry(lidar.url) });
    expect(result.used.geometry).toBe('NOT_NEEDED');
    expect(lidar.hits).toHaveLength(0);
  });

  it('asks the provider for the impact of a renovation', async () => {
    const impact = await provider(json(200, { score_before: 400, score_after: 150, energy_efficiency_type: 'EPC_FLANDERS' }));
    const p = energy(impact.url);
    const renovated: PropertyDescription = { ...home, outer_wall_insulation_type: 'STRONG' };
    expect(await p.estimateImpact(home, renovated)).toEqual({
      status: 'OK',
      data: { score_before: 400, score_after: 150, energy_efficiency_type: 'EPC_FLANDERS' },
    });
    expect(impact.hits).toEqual([{ path: '/impact', body: { property: home, renovated } }]);
  });
});
