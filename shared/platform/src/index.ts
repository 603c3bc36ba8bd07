export * from './ports/event-store.ts';
export * from './ports/read-store.ts';
export * from './ports/bus.ts';
export * from './ports/blob-store.ts';
