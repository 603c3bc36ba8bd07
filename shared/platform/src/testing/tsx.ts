import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The repo's own tsx, found by walking up from `from` to the node_modules that holds it: the tests
 * that kill and restart child processes run them through it.
 */
export function findTsx(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', '.bin', 'tsx');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error('tsx not found in any node_modules/.bin above the test');
  }
}
