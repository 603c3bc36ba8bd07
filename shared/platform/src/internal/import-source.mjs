// How a worker thread's plain JavaScript loads the TypeScript it runs: the compiled file beside it
// where there is one (the image carries build/'s JavaScript and no TypeScript: Dockerfile), else the
// source through tsx's scoped import (a checkout). A thread does not reliably get the process's
// loader (the tsx command's does not; a test runner's worker has none), and a scoped import neither
// depends on it nor compiles anything twice where it is there.
import { existsSync } from 'node:fs';

/** Imports `./name.ts` relative to `base` (a worker's import.meta.url), compiled or not. */
export async function importSource(relativeTs, base) {
  const compiled = new URL(relativeTs.replace(/\.ts$/, '.js'), base);
  if (existsSync(compiled)) return import(compiled.href);
  const { tsImport } = await import('tsx/esm/api');
  return tsImport(relativeTs, base);
}
