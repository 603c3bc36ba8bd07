import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * A reporter beside the default one: after the run, the slowest test files (tests and hooks, plus
 * the time to import them), with their project, so a file that grows slow is seen in every CI log.
 * RENOPATH_SLOWEST_FILES sets how many (default 10; 0 prints none).
 */
export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const count = Number(process.env['RENOPATH_SLOWEST_FILES'] ?? 10);
    if (!(count > 0) || modules.length === 0) return;
    const rows = modules
      .map((module) => {
        const { duration, collectDuration, setupDuration } = module.diagnostic();
        return {
          file: relative(process.cwd(), module.moduleId),
          project: module.project.name,
          ms: duration + collectDuration + setupDuration,
        };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, count);
    const lines = rows.map(({ file, project, ms }) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file} [${project}]`);
    process.stdout.write(`\nSlowest test files:\n${lines.join('\n')}\n`);
  }
}
