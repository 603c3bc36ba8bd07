import { defineConfig } from 'vitest/config';

const roots = ['shared/*/src', 'shared/*/test', 'services/*/src', 'services/*/test', 'test'];
/** The three test shapes, by file suffix: `npm run test:unit` runs the fast, server-free ones alone. */
const shape = (suffix: string) => roots.map((root) => `${root}/**/*.${suffix}.spec.ts`);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores on CI machines: keep worker count low so int/e2e suites with real servers do not starve.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: shape('unit') } },
      { extends: true, test: { name: 'int', include: shape('int') } },
      { extends: true, test: { name: 'e2e', include: shape('e2e') } },
    ],
  },
});
