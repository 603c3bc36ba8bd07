import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This checkout's root (the bench's own code runs from here). */
export const THIS_CHECKOUT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `BENCH_REFERENCE=<commit>`: the same bench runs that commit beside this checkout, alternating, so a
 * figure can be compared on a shared machine whose speed moves from one minute to the next.
 */
export const REFERENCE = process.env['BENCH_REFERENCE']?.trim() || null;

/**
 * A checkout of `commit` with its own dependencies, in a git worktree under the system's temporary
 * directory (outside the repository), made once and kept for the next run: `git worktree add`, then
 * `npm ci` there. Returns its root. `git worktree remove <dir>` (or `git worktree prune` after deleting
 * it) gives it back.
 */
export function referenceCheckout(commit: string): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: THIS_CHECKOUT, encoding: 'utf8' }).trim();
  const sha = git('rev-parse', '--verify', `${commit}^{commit}`);
  const root = join(tmpdir(), 'renopath-bench-reference', sha.slice(0, 12));
  const ready = join(root, '.bench-reference-ready');
  if (existsSync(ready)) return root;
  if (!existsSync(join(root, '.git'))) {
    mkdirSync(join(tmpdir(), 'renopath-bench-reference'), { recursive: true });
    // A stale registration (the directory deleted by hand) would make `worktree add` refuse.
    git('worktree', 'prune');
    console.error(`bench reference: checking out ${sha.slice(0, 12)} in ${root}`);
    git('worktree', 'add', '--detach', root, sha);
  }
  console.error(`bench reference: npm ci in ${root} (once; later runs reuse it)`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  writeFileSync(ready, `${sha}\n`);
  return root;
}

/** The checkouts a bench compares: this one, and the reference when BENCH_REFERENCE names one. */
export function benchCheckouts(): Array<{ label: string; root: string }> {
  const here = { label: 'this checkout', root: THIS_CHECKOUT };
  if (!REFERENCE) return [here];
  return [here, { label: `reference ${REFERENCE}`, root: referenceCheckout(REFERENCE) }];
}
