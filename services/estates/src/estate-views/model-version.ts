import type { Logger } from 'pino';
import type { ReadStore } from '@renopath/platform';
import type { Projection } from '@renopath/platform/projection-runner.ts';
import { MODEL_VERSION } from '@renopath/energy';

/** Kept outside the projection's collections, so a rebuild does not erase it. */
const META = 'estates_meta';

/**
 * The stored quality labels and estimates come from the energy model: when its version changes,
 * the views are rebuilt from the events so every estate is graded by the model in use.
 */
export async function rebuildWhenModelChanged(reads: ReadStore, projection: Projection, log: Logger) {
  const stored = await reads.get<{ model_version: string }>(META, 'energy-model');
  if (stored?.model_version === MODEL_VERSION) return;
  if (stored) {
    log.info({ from: stored.model_version, to: MODEL_VERSION }, 'energy model changed: rebuilding the estate views');
    await projection.rebuild();
  }
  await reads.transaction((tx) => tx.put(META, 'energy-model', { model_version: MODEL_VERSION }));
}
