/**
 * Estates context (the interface's "Estate", "Estate parts"; docs/http-contract.md "Estates and their parts"): an estate and its parts
 * (roofs, floors with rooms and staircases), files, media and estate members. One stream per estate
 * holds everything.
 *
 * Names, types and nesting are the interface's: `address`, `commercial_context`, `energy_context` and
 * `dimensions` are objects, from the HTTP body through commands and events to the replies. As an
 * extension the energy context carries every other energy field of the trajectory request under the
 * same name and type, so a job can create an estate without losing data; the roof surfaces and their
 * insulation live on the estate's roofs (docs/http-contract.md "Estates and their parts"), and `dimensions.*_cm` are the request's
 * building width, depth and cornice height in centimetres (docs/http-contract.md "General rules").
 */
export * from './estates/estate-fields.ts';
export * from './estates/parts.ts';
export * from './estates/reads.ts';
export * from './estates/messages.ts';
