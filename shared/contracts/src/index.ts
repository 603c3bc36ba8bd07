export * from './enums.ts';
export * from './trajectory-request.ts';
