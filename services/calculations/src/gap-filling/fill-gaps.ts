import { PropertyFields, type DataSource, type PropertyDescription } from '@renopath/contracts';
import { checkConsistency, detectRegion, scaleOfRegion, type DataQualityFlag } from '@renopath/energy';
import rules from './data/gap-filling.json' with { type: 'json' };
import type { BuildingAddress, EnergyEfficiencyProvider, GeometryProvider, MeasuredGeometry } from './providers.ts';

/**
 * Fills gaps in a property description from LiDAR geometry and the external energy-efficiency
 * provider (docs/http-contract.md "What the service does" 3, docs/domain.md, Confidence). A field the client or the EPC
 * document gave is never replaced; what neither a provider nor the client gives is left to the
 * typology model (resolveProperty marks it MODEL).
 */

export type ProviderUse =
  | 'OK'
  /** Asked, but it knew nothing usable about this home (no building found, another scale, values out of range). */
  | 'NO_DATA'
  /** Failed, too slow, or its circuit is open: flagged PROVIDER_UNAVAILABLE. */
  | 'UNAVAILABLE'
  /** No URL configured: no call made. */
  | 'NOT_CONFIGURED'
  /** Nothing for it to fill (the client gave it all, or the home is an apartment for LiDAR): no call made. */
  | 'NOT_NEEDED';

export interface GapFillProviders {
  geometry?: GeometryProvider;
  energy?: EnergyEfficiencyProvider;
}

export interface GapFillResult {
  property: PropertyDescription;
  /** The given sources plus LIDAR or PROVIDER for each filled field (the energy model's SourceOverrides). */
  sources: Record<string, DataSource>;
  flags: DataQualityFlag[];
  used: { geometry: ProviderUse; energy: ProviderUse };
}

type GeometryField = keyof MeasuredGeometry;
const ROOF_FIELDS = ['inclined_roof_pane_surface', 'flat_roof_pane_surface'] as const;
const SKIP_LIDAR: ReadonlySet<string> = new Set(rules.lidar.skip_estate_types);

function addressOf(p: PropertyDescription): BuildingAddress | null {
  if (!p.street || !p.house_number) return null;
  return {
    street: p.street,
    house_number: p.house_number,
    ...(p.house_number_extra ? { house_number_extra: p.house_number_extra } : {}),
    zip_code: p.zip_code,
    ...(p.place ? { place: p.place } : {}),
    country: p.country,
  };
}

/** The geometry fields still missing; the roof surfaces count as one: a client who gave one described the roof. */
function missingGeometry(p: PropertyDescription): GeometryField[] {
  const out: GeometryField[] = [];
  for (const f of ['building_width', 'building_depth', 'cornice_height'] as const) if (p[f] === undefined) out.push(f);
  if (ROOF_FIELDS.every((f) => p[f] === undefined)) out.push(...ROOF_FIELDS);
  return out;
}

/** New 422-rule violations (docs/http-contract.md) a filled value would cause: the value is not used. */
function violations(p: PropertyDescription, field: string, before: ReadonlySet<string>): string[] {
  return checkConsistency(p as PropertyDescription & Record<string, unknown>, { now: new Date() }).filter(
    (m) => m.startsWith(`${field} `) && !before.has(m),
  );
}

function setIfValid(
  p: PropertyDescription,
  sources: Record<string, DataSource>,
  flags: DataQualityFlag[],
  field: keyof PropertyDescription,
  value: number,
  source: DataSource,
  provider: string,
): boolean {
  const schema = PropertyFields[field] as { safeParse(v: unknown): { success: boolean } };
  const baseline = new Set(checkConsistency(p as PropertyDescription & Record<string, unknown>, { now: new Date() }));
  const candidate = { ...p, [field]: value } as PropertyDescription;
  const problems = schema.safeParse(value).success ? violations(candidate, field, baseline) : [`${field} ${value} is out of range`];
  if (problems.length > 0) {
    flags.push({
      field,
      code: 'PROVIDER_VALUE_REJECTED',
      message: `the ${provider} gave ${field} ${value}, which was not used (${problems.join('; ')})`,
    });
    return false;
  }
  (p as Record<string, unknown>)[field] = value;
  sources[field] = source;
  return true;
}

async function fillGeometry(
  p: PropertyDescription,
  sources: Record<string, DataSource>,
  flags: DataQualityFlag[],
  provider?: GeometryProvider,
): Promise<ProviderUse> {
  if (!provider) return 'NOT_CONFIGURED';
  const missing = missingGeometry(p);
  if (missing.length === 0 || (p.estate_type !== undefined && SKIP_LIDAR.has(p.estate_type))) return 'NOT_NEEDED';
  const address = addressOf(p);
  if (!address) {
    flags.push({
      field: 'street',
      code: 'PROVIDER_NO_DATA',
      message: `no LiDAR lookup without street and house_number: ${missing.join(', ')} were estimated from the typology`,
    });
    return 'NO_DATA';
  }
  const answer = await provider.measure(address);
  if (answer.status !== 'OK') {
    const code = answer.status === 'UNAVAILABLE' ? 'PROVIDER_UNAVAILABLE' : 'PROVIDER_NO_DATA';
    flags.push({ field: missing[0]!, code, message: `${answer.reason}: ${missing.join(', ')} were estimated from the typology` });
    return answer.status;
  }
  let filled = 0;
  for (const field of missing) {
    const value = answer.data[field];
    // A roof part of 0 m2 is absent, not a surface.
    if (value === undefined || (value === 0 && (ROOF_FIELDS as readonly string[]).includes(field))) continue;
    if (setIfValid(p, sources, flags, field, value, 'LIDAR', 'LiDAR geometry service')) filled++;
  }
  return filled > 0 ? 'OK' : 'NO_DATA';
}

async function fillScore(
  p: PropertyDescription,
  sources: Record<string, DataSource>,
  flags: DataQualityFlag[],
  provider?: EnergyEfficiencyProvider,
): Promise<ProviderUse> {
  if (!provider) return 'NOT_CONFIGURED';
  if (p.energy_efficiency_score !== undefined) return 'NOT_NEEDED';
  const region = detectRegion(p.zip_code, p.country);
  const answer = await provider.estimateScore(p);
  const field = 'energy_efficiency_score';
  if (answer.status !== 'OK') {
    const code = answer.status === 'UNAVAILABLE' ? 'PROVIDER_UNAVAILABLE' : 'PROVIDER_NO_DATA';
    flags.push({ field, code, message: `${answer.reason}: the current score was computed by the model alone` });
    return answer.status;
  }
  // A score on another region's scale would be read on the wrong scale: not used.
  const scale = region ? scaleOfRegion(region) : null;
  if (scale !== answer.data.energy_efficiency_type) {
    flags.push({
      field,
      code: 'PROVIDER_VALUE_REJECTED',
      message: `the energy-efficiency provider gave a score on the ${answer.data.energy_efficiency_type} scale, not the home's ${scale ?? 'unrecognised region'}'s; it was not used`,
    });
    return 'NO_DATA';
  }
  return setIfValid(p, sources, flags, field, answer.data.energy_efficiency_score, 'PROVIDER', 'energy-efficiency provider')
    ? 'OK'
    : 'NO_DATA';
}

export async function fillGaps(
  property: PropertyDescription,
  sources: Record<string, DataSource>,
  providers: GapFillProviders,
): Promise<GapFillResult> {
  const p: PropertyDescription = { ...property };
  const s: Record<string, DataSource> = { ...sources };
  const flags: DataQualityFlag[] = [];
  // Geometry first: the energy provider then describes the home with the measured sizes.
  const geometry = await fillGeometry(p, s, flags, providers.geometry);
  const energy = await fillScore(p, s, flags, providers.energy);
  return { property: p, sources: s, flags, used: { geometry, energy } };
}
