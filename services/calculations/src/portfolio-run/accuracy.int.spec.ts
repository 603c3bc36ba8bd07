import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { EnergyEfficiencyType, TrajectoryRequest } from '@renopath/contracts';
import { labelFor, labelsOf, scaleOfRegion } from '@renopath/energy';
import { propertyOfListing, readListings } from '@renopath/energy/calibration/listings.ts';
import { inlinePlanner } from '../planner/planner-pool.ts';
import { computeTrajectory } from '../trajectory/compute-trajectory.ts';
import { computeBatch } from './compute.ts';
import { readPortfolioCsv } from './csv.ts';
import type { RawRow } from './rows.ts';

/**
 * Real certificates (the committed sample of Belgian EPC adverts, shared/energy/data): every 40th
 * listing, its certificate score left out of the file, estimated by a portfolio run and by a single
 * trajectory job. The portfolio's label must be within one class of the certificate's as often as the
 * job's (the same homes, written as CSV cells and read back, must not lose what the job knows).
 */
const listings = readListings(fileURLToPath(new URL('../../../../shared/energy/data/epc-listings-sample.csv', import.meta.url))).filter(
  (_, i) => i % 40 === 0,
);
const COLUMNS = [
  'external_id',
  'country',
  'zip_code',
  'year_built',
  'estate_format',
  'habitable_space_m2',
  'estate_type',
  'basement_type',
  'window_glazing_type',
  'heating_type',
] as const;

const withinOne = (scale: EnergyEfficiencyType, estimated: string, truth: number) => {
  const labels = labelsOf(scale);
  return Math.abs(labels.indexOf(estimated) - labels.indexOf(labelFor(scale, truth))) <= 1;
};

describe('estimated labels on real certificates', () => {
  it('are within one class of the certificate as often in a portfolio run as in single jobs', async () => {
    const properties = listings.map(propertyOfListing);
    const csv = [
      COLUMNS.join(';'),
      ...properties.map((p, i) =>
        COLUMNS.map((c) => (c === 'external_id' ? `L${i}` : String((p as Record<string, unknown>)[c] ?? ''))).join(';'),
      ),
    ].join('\n');
    const rows: RawRow[] = [];
    await readPortfolioCsv(
      Buffer.from(csv),
      1_000,
      () => undefined,
      async (batch) => void rows.push(...batch),
    );
    const results = computeBatch(rows, 2026);

    let portfolioHits = 0;
    let jobHits = 0;
    const planner = inlinePlanner();
    for (const [i, listing] of listings.entries()) {
      const scale = scaleOfRegion(listing.region);
      const result = results[i]!;
      expect(result.status, result.error ?? '').toBe('OK');
      if (withinOne(scale, result.epc_label!, listing.score)) portfolioHits++;
      const job = await computeTrajectory({
        request: properties[i] as TrajectoryRequest,
        document: null,
        providers: {},
        planner,
        year: 2026,
      });
      if (job.outcome !== 'PLANNED') throw new Error(`job ${i}: ${JSON.stringify(job.error)}`);
      if (withinOne(scale, job.plan.result.current.epc_label, listing.score)) jobHits++;
    }
    expect(listings.length).toBeGreaterThan(250);
    expect(portfolioHits).toBeGreaterThanOrEqual(jobHits);
    // And not by luck on a handful: most labels are within one class (the model's calibrated accuracy).
    expect(portfolioHits / listings.length).toBeGreaterThan(0.5);
  }, 120_000);
});
