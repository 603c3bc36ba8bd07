import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/*/src/**/*.spec.ts', 'shared/*/test/**/*.spec.ts', 'services/*/src/**/*.spec.ts', 'services/*/test/**/*.spec.ts', 'test/**/*.spec.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores on CI machines: keep worker count low so int/e2e suites with real servers do not starve.
    maxWorkers: 2,
  },
});
