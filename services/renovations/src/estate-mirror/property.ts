import { knownPropertyOfEstate, propertyFromEstate, type PropertyDescription, type RenovationEstateSnapshot } from '@renopath/contracts';

/**
 * The estate (this context's copy) as the energy model and the catalogue read it, through the one
 * estate-to-property bridge in `shared/contracts/src/estate-property.ts`.
 */
export { knownPropertyOfEstate, REQUIRED_PROPERTY_FIELDS, roofFields } from '@renopath/contracts';

export interface EstateProperty {
  /** Every known field (predicates and quantities read what is there; unknowns pass). */
  partial: Partial<PropertyDescription>;
  /** The model's input, or null while one of the five required fields is unknown. */
  full: PropertyDescription | null;
}

export function propertyOf(estate: RenovationEstateSnapshot): EstateProperty {
  return { partial: knownPropertyOfEstate(estate), full: propertyFromEstate(estate) };
}
