import { expect } from 'vitest';
import { FLEMISH_1960_HOUSE } from './renovations.fixtures.ts';

/**
 * The write load of the suites that break the distributed stack under it (kill-postgres, faults): keyed
 * creates of estates, roofs, renovations, items (and calculation jobs), and edits of estates, each
 * retried with its key until answered, then checked to be there exactly once.
 */
export interface Write {
  key: string | null;
  method: 'POST' | 'PATCH';
  path: string;
  body: Record<string, unknown>;
  kind: 'estate' | 'roof' | 'renovation' | 'item' | 'edit' | 'job';
  /** The first answer the client got (2xx), or null while none came. */
  answer: { status: number; id: string } | null;
  /** Why the last attempt got no answer (for failure messages). */
  lastError?: string;
}

export type Answer = { status: number; text: string };
export type Send = (w: Pick<Write, 'key' | 'method' | 'path' | 'body'>) => Promise<Answer>;

/** Two estates with a renovation each, which the roofs and items are added to. */
export interface Targets {
  bases: string[];
  renovations: string[];
}

export const JOB_URL = '/v1/calculation-jobs/suggested-renovation-trajectory-calculation';

export async function createTargets(send: Send): Promise<Targets> {
  const targets: Targets = { bases: [], renovations: [] };
  for (let i = 0; i < 2; i++) {
    const estate = await send({
      key: `base-estate-${i}`,
      method: 'POST',
      path: '/estates',
      body: { ...FLEMISH_1960_HOUSE, name: `base ${i}` },
    });
    expect(estate.status, estate.text).toBe(201);
    targets.bases.push(JSON.parse(estate.text).id);
    const renovation = await send({
      key: `base-renovation-${i}`,
      method: 'POST',
      path: '/renovations',
      body: { estate_id: targets.bases[i] },
    });
    expect(renovation.status, renovation.text).toBe(201);
    targets.renovations.push(JSON.parse(renovation.text).id);
  }
  return targets;
}

/**
 * A 2xx acknowledges the write (its first answer is kept); 409 (a claim in progress), 429, 5xx and
 * no answer leave it unanswered, to be retried with its key; any other 4xx is a wrong request.
 */
export function outcome(w: Write, res: Answer): 'acknowledged' | 'unanswered' | 'refused' {
  if (res.status >= 200 && res.status < 300) {
    const id = w.kind === 'edit' ? (w.path.split('/')[2] ?? '') : String((JSON.parse(res.text) as { id?: unknown }).id);
    w.answer ??= { status: res.status, id };
    return 'acknowledged';
  }
  w.lastError = `${res.status} ${res.text.slice(0, 200)}`;
  return res.status >= 400 && res.status < 500 && res.status !== 409 && res.status !== 429 ? 'refused' : 'unanswered';
}

/**
 * One writer's next write, named `<tag>-<kind>-<round>-<writer>-<i>`: a keyed create of each kind in
 * turn (a job too, with `jobs`, whose webhook goes to `webhookUrl`), and an edit of an estate it made. Estates are named `<tag> …`,
 * edited ones `edited …`.
 */
export function nextWrite(
  tag: string,
  round: string,
  w: number,
  i: number,
  mine: Write[],
  targets: Targets,
  options: { jobs?: boolean; webhookUrl?: string } = {},
): Write {
  const n = `${round.replace(/[^A-Za-z0-9]+/g, '-')}-${w}-${i}`;
  const base = targets.bases[(w + i) % targets.bases.length]!;
  const renovation = targets.renovations[(w + i) % targets.renovations.length]!;
  const editable = mine.find(
    (m) => m.kind === 'estate' && m.answer && !mine.some((e) => e.kind === 'edit' && e.path === `/estates/${m.answer!.id}`),
  );
  const kinds = options.jobs ? 6 : 5;
  switch (i % kinds) {
    case 0:
      return {
        key: `${tag}-estate-${n}`,
        method: 'POST',
        path: '/estates',
        body: { name: `${tag} ${n}`, address: { zip_code: '9000', country: 'BE' } },
        kind: 'estate',
        answer: null,
      };
    case 1:
      return {
        key: `${tag}-roof-${n}`,
        method: 'POST',
        path: `/estates/${base}/roofs`,
        body: { estate_roof_type: 'FLAT', surface_m2: 10 + (i % 50) },
        kind: 'roof',
        answer: null,
      };
    case 2:
      return {
        key: `${tag}-renovation-${n}`,
        method: 'POST',
        path: '/renovations',
        body: { estate_id: base, renovation_name: `${tag} ${n}` },
        kind: 'renovation',
        answer: null,
      };
    case 3:
      return {
        key: `${tag}-item-${n}`,
        method: 'POST',
        path: `/renovations/${renovation}/items`,
        body: { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 + (i % 3) },
        kind: 'item',
        answer: null,
      };
    case 5:
      return {
        key: `${tag}-job-${n}`,
        method: 'POST',
        path: JOB_URL,
        body: {
          year_built: 1950 + (i % 40),
          estate_format: 'SEMI_OPEN',
          habitable_space_m2: 150,
          zip_code: '9000',
          country: 'BE',
          ...(options.webhookUrl ? { webhook_url: options.webhookUrl } : {}),
        },
        kind: 'job',
        answer: null,
      };
    default:
      // An edit is a PATCH (no Idempotency-Key in docs/http-contract.md "Idempotency and read-your-writes"): a retry sets the same name again.
      if (editable)
        return {
          key: null,
          method: 'PATCH',
          path: `/estates/${editable.answer!.id}`,
          body: { name: `edited ${n}` },
          kind: 'edit',
          answer: null,
        };
      return {
        key: `${tag}-estate-${n}-b`,
        method: 'POST',
        path: '/estates',
        body: { name: `${tag} ${n}-b` },
        kind: 'estate',
        answer: null,
      };
  }
}

/** Retries a write with its key (and body) until it is answered: after recovery, every one must be. */
export async function untilAnswered(w: Write, send: Send, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = outcome(w, await send(w));
    if (result === 'acknowledged') return;
    if (result === 'refused') throw new Error(`${w.method} ${w.path} (key ${w.key}) refused: ${w.lastError}`);
    if (Date.now() > deadline) throw new Error(`${w.method} ${w.path} (key ${w.key}) still unanswered: ${w.lastError}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Every write answered, each keyed one answering again as the first time (the same resource, never a
 * second one), and each there once: the estates named `<tag> …` or `edited …`, the edits, the roofs
 * of the targets' estates, the renovations made on them and the items of the targets' renovations. Lists are projections: they are polled until they catch up.
 */
export async function expectEachWriteOnce(
  tag: string,
  writes: Write[],
  targets: Targets,
  send: Send,
  get: (path: string) => Promise<any>,
): Promise<void> {
  expect(
    writes.filter((x) => !x.answer).map((x) => `${x.method} ${x.path} (key ${x.key}): ${x.lastError}`),
    'writes never answered',
  ).toEqual([]);
  for (const w of writes.filter((x) => x.key && x.kind !== 'job')) {
    const res = await send(w);
    const id = res.status >= 200 && res.status < 300 ? String(JSON.parse(res.text).id) : res.text;
    expect({ status: res.status, id }, `repeat of ${w.key}`).toEqual(w.answer);
  }
  const of = (kind: Write['kind']) => writes.filter((w) => w.kind === kind);
  const created = of('estate').map((w) => w.answer!.id);
  expect(new Set(created).size, 'one estate per key').toBe(created.length);
  const named = new RegExp(`^(${tag}|edited) `);
  await expect
    .poll(
      async () =>
        (await get('/estates'))
          .filter((e: { name: string | null }) => named.test(e.name ?? ''))
          .map((e: { id: string }) => e.id)
          .sort(),
      { timeout: 60_000 },
    )
    .toEqual([...created].sort());
  for (const w of of('edit')) expect((await get(w.path)).name, w.path).toBe(w.body['name']);
  for (const base of targets.bases) {
    const roofs = of('roof')
      .filter((w) => w.path === `/estates/${base}/roofs`)
      .map((w) => w.answer!.id)
      .sort();
    await expect
      .poll(async () => ((await get(`/estates/${base}`)).roofs as Array<{ id: string }>).map((r) => r.id).sort(), { timeout: 60_000 })
      .toEqual(roofs);
  }
  const renovations = of('renovation').map((w) => w.answer!.id);
  await expect
    .poll(
      async () =>
        (await get('/renovations'))
          .filter((r: { estate_id: string }) => targets.bases.includes(r.estate_id))
          .map((r: { id: string }) => r.id)
          .sort(),
      { timeout: 60_000 },
    )
    .toEqual([...renovations, ...targets.renovations].sort());
  for (const renovation of targets.renovations) {
    const items = of('item')
      .filter((w) => w.path === `/renovations/${renovation}/items`)
      .map((w) => w.answer!.id)
      .sort();
    await expect
      .poll(async () => ((await get(`/renovations/${renovation}/items`)) as Array<{ id: string }>).map((i) => i.id).sort(), {
        timeout: 60_000,
      })
      .toEqual(items);
  }
}
