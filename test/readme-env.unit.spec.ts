import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README's configuration section names every environment variable the code reads, and no
 * variable the code has stopped reading: an operator learns the service's settings from it.
 */
const ROOT = join(import.meta.dirname, '..');

function sources(dir: string, into: string[] = []): string[] {
  // Specs included: some test-harness variables are read only there (filtered below where it matters).
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(path).isDirectory()) sources(path, into);
    else if (/\.(ts|mts|mjs)$/.test(name)) into.push(path);
  }
  return into;
}

const code = ['services', 'shared'].flatMap((top) =>
  readdirSync(join(ROOT, top)).flatMap((pkg) => {
    const src = join(ROOT, top, pkg, 'src');
    try {
      return statSync(src).isDirectory() ? sources(src) : [];
    } catch {
      return [];
    }
  }),
);

/** What the code reads: every RENOPATH_ name, and the keys of the services' environment schemas (PORT, HOST, LOG_LEVEL). */
function readByCode(withSpecs = false): Map<string, string> {
  const names = new Map<string, string>();
  for (const file of code.filter((f) => withSpecs || !/\.spec\.ts$/.test(f))) {
    const text = readFileSync(file, 'utf8');
    for (const [name] of text.matchAll(/\bRENOPATH_[A-Z0-9_]*[A-Z0-9]\b/g)) if (!names.has(name)) names.set(name, relative(ROOT, file));
    if (/(config|adapters)\.ts$/.test(file)) {
      for (const [, name] of text.matchAll(/^\s+([A-Z][A-Z0-9_]+): z\./gm)) if (!names.has(name!)) names.set(name!, relative(ROOT, file));
    }
  }
  return names;
}

function documented(): Set<string> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
  return new Set([...section.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));
}

describe('README configuration', () => {
  it('names every environment variable the code reads', () => {
    const read = readByCode();
    expect(read.size).toBeGreaterThan(40);
    const names = documented();
    expect([...read].filter(([name]) => !names.has(name)).map(([name, file]) => `${name} (read in ${file})`)).toEqual([]);
  });

  it('names no variable the code (or a test) does not read', () => {
    const read = readByCode(true);
    expect([...documented()].filter((name) => /^RENOPATH_|^(PORT|HOST|LOG_LEVEL)$/.test(name) && !read.has(name))).toEqual([]);
  });
});
