export * from './enums.ts';
export * from './errors.ts';
export * from './identity.ts';
export * from './trajectory-request.ts';
export * from './service.ts';
export * from './estates.ts';
export * from './calculations.ts';
export * from './renovations.ts';
