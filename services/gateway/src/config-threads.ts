import { availableParallelism } from 'node:os';
import { z } from 'zod';

/** The contexts embedded mode can run in a thread of their own (identity stays with the gateway: it bootstraps the first client). */
export const THREADABLE_CONTEXTS = ['estates', 'renovations', 'calculations', 'reporting'] as const;
export type ThreadableContext = (typeof THREADABLE_CONTEXTS)[number];

/**
 * What `auto` (the default) runs in threads: the two contexts with the most work per job after the
 * gateway's share, measured by `npm run bench -- jobs` (docs/architecture.md). Every context in a
 * thread costs more CPU in messages between threads than it frees on a machine with few cores.
 */
const AUTO: ThreadableContext[] = ['estates', 'calculations'];

/**
 * `RENOPATH_CONTEXT_THREADS`: which contexts embedded mode runs in threads of their own: `auto` (the
 * default: estates and calculations, or none on a single core), `all` (estates, renovations,
 * calculations and reporting, each in one), `none` (every context on the main thread), or a
 * comma-separated list of those four.
 */
const ContextThreadsEnv = z
  .string()
  .default('auto')
  .transform((value, ctx): ThreadableContext[] => {
    const v = value.trim();
    if (v === 'auto') return availableParallelism() > 1 ? [...AUTO] : [];
    if (v === 'all') return [...THREADABLE_CONTEXTS];
    if (v === 'none' || v === '') return [];
    const names = v.split(',').map((n) => n.trim());
    const unknown = names.filter((n) => !(THREADABLE_CONTEXTS as readonly string[]).includes(n));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `RENOPATH_CONTEXT_THREADS: ${unknown.join(', ')} cannot run in a thread (expected auto, all, none or some of ${THREADABLE_CONTEXTS.join(', ')})`,
      });
      return z.NEVER;
    }
    return [...new Set(names)] as ThreadableContext[];
  });

/** RENOPATH_CONTEXT_THREADS read as the other settings are: a wrong value is an `invalid configuration` error that names it. */
export function contextThreadsOf(env: NodeJS.ProcessEnv): ThreadableContext[] {
  const parsed = ContextThreadsEnv.safeParse(env['RENOPATH_CONTEXT_THREADS']);
  if (!parsed.success) throw new Error(`invalid configuration: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}
