/** The old-style indication body (contracts calculations.ts) as the model's property description. */
import type { Country, IndicationRequest, PropertyDescription } from '@renopath/contracts';
import { envelope } from './data.ts';
import { detectRegion } from './region.ts';

const D = envelope.indication_defaults;

/** The country of the body: stated, else read from the postal code, else the default (Flanders). */
function countryOf(r: IndicationRequest): Country {
  if (r.country) return r.country;
  if (r.zip_code !== undefined && detectRegion(r.zip_code) === 'NETHERLANDS') return 'NL';
  return D.country;
}

/**
 * Map the indication fields onto the trajectory request's: `estate_roof_type` -> `roof_type` with
 * `roof_insulation_type` on each of its parts, `window_type` -> `window_glazing_type`,
 * `ground_floor_type` -> `basement_type` with `ground_floor_insulation_type` on the matching floor field.
 * Missing postal code, country or format take the defaults of data/envelope.json (Flanders, SEMI_OPEN).
 */
export function propertyFromIndication(r: IndicationRequest): PropertyDescription {
  const country = countryOf(r);
  const p: PropertyDescription = {
    year_built: r.year_built,
    estate_format: r.estate_format ?? D.estate_format,
    habitable_space_m2: r.habitable_space_m2,
    zip_code: r.zip_code ?? D.zip_code[country],
    country,
  };
  if (r.estate_type) p.estate_type = r.estate_type;
  if (r.estate_roof_type) p.roof_type = r.estate_roof_type;
  if (r.roof_insulation_type) {
    // Without a roof type the level goes to an inclined roof, the common case in both countries.
    if (r.estate_roof_type !== 'FLAT') p.inclined_roof_insulation_type = r.roof_insulation_type;
    if (r.estate_roof_type === 'FLAT' || r.estate_roof_type === 'MIXED') p.flat_roof_insulation_type = r.roof_insulation_type;
  }
  if (r.outer_wall_insulation_type) p.outer_wall_insulation_type = r.outer_wall_insulation_type;
  if (r.window_type) p.window_glazing_type = r.window_type;
  if (r.ventilation_type) p.ventilation_type = r.ventilation_type;
  switch (r.ground_floor_type) {
    case 'SOLID_GROUND_FLOOR':
      p.basement_type = 'NONE';
      break;
    case 'FLOOR_ABOVE_BASEMENT':
      p.basement_type = 'FULL';
      break;
    case 'FLOOR_ABOVE_CRAWL_SPACE':
      p.basement_type = 'CRAWL_SPACE';
      break;
    default:
      break;
  }
  if (r.ground_floor_insulation_type) {
    if (r.ground_floor_type === 'FLOOR_ABOVE_BASEMENT' || r.ground_floor_type === 'FLOOR_ABOVE_CRAWL_SPACE') {
      p.floor_above_basement_insulation_type = r.ground_floor_insulation_type;
    } else {
      p.solid_ground_floor_insulation_type = r.ground_floor_insulation_type;
    }
  }
  if (r.heating_type) p.heating_type = r.heating_type;
  if (r.heating_device) p.heating_device = r.heating_device;
  if (r.sanitary_heating_device) p.sanitary_heating_device = r.sanitary_heating_device;
  if (r.eco_facilities && r.eco_facilities.length > 0) {
    p.eco_facilities = [...r.eco_facilities];
    if (r.eco_facilities.includes('SOLAR_PANELS')) p.has_solar_panels = true;
    if (r.eco_facilities.includes('SOLAR_BOILER')) p.has_solar_boiler = true;
  }
  return p;
}
