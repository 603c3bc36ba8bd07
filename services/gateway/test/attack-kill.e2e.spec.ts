import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childToken, keyedPost, startChild, type ServiceChild } from './child.ts';

/**
 * kill -9 under keyed write load, then retries with the same keys: 0 acknowledged writes lost,
 * 0 duplicated, every retry answered with the original status (and resource). A short loop runs in
 * `npm test`; `npm run attack` sets RENOPATH_ATTACK_KILL_ROUNDS=18.
 */
const ROUNDS = Number(process.env['RENOPATH_ATTACK_KILL_ROUNDS'] ?? 2);
const WRITERS = 4;

const dataDir = mkdtempSync(join(tmpdir(), 'renopath-kill-loop-'));
let child: ServiceChild | null = null;
afterAll(async () => {
  await child?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Sent {
  key: string;
  path: string;
  body: Record<string, unknown>;
  /** The first answer, when it arrived before the kill. */
  answer: { status: number; id: string } | null;
}

const get = async (url: string, token: string, path: string) =>
  (await (await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } })).json()) as unknown;

describe('kill -9 under keyed writes', () => {
  it(`${ROUNDS} rounds: nothing lost, nothing twice, every retry answered as the first time`, {
    timeout: 120_000 + ROUNDS * 30_000,
  }, async () => {
    const sent: Sent[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      child = await startChild(dataDir);
      const token = await childToken(child.url);
      // Retries of everything sent so far (answered or not) come first, each with its key and body.
      for (const s of sent) {
        const res = await keyedPost(child.url, token, s.path, s.body, s.key);
        expect(res, `retry of ${s.key}`).not.toBeNull();
        const id = String(res!.body['id']);
        if (s.answer) expect({ status: res!.status, id }, `retry of answered ${s.key}`).toEqual(s.answer);
        else {
          expect(res!.status, `retry of unanswered ${s.key}: ${JSON.stringify(res!.body)}`).toBe(201);
          s.answer = { status: res!.status, id };
        }
      }
      // Then load: keyed creates (half with an external_id), and a part on an estate made earlier.
      const estates = sent.filter((s) => s.path === '/estates' && s.answer).map((s) => s.answer!.id);
      let stop = false;
      const writers = Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; !stop; i++) {
          const n = `${round}-${w}-${i}`;
          const s: Sent =
            estates.length && i % 3 === 2
              ? {
                  key: `kill-roof-${n}`,
                  path: `/estates/${estates[(w + i) % estates.length]}/roofs`,
                  body: { estate_roof_type: 'FLAT', surface_m2: 10 + (i % 50) },
                  answer: null,
                }
              : {
                  key: `kill-estate-${n}`,
                  path: '/estates',
                  body: { name: `Kill ${n}`, ...(i % 2 ? { external_id: `ext-${n}` } : {}) },
                  answer: null,
                };
          sent.push(s);
          const res = await keyedPost(child!.url, token, s.path, s.body, s.key);
          if (!res) return; // the process died under this request
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          s.answer = { status: res.status, id: String(res.body['id']) };
        }
      });
      // Kill at a moment the test does not choose precisely: somewhere in the first few dozen writes.
      await new Promise((resolve) => setTimeout(resolve, 150 + Math.floor(Math.random() * 600)));
      await child.kill();
      stop = true;
      await Promise.all(writers);
    }

    // A last life: every request is retried once more, then the whole state is checked.
    child = await startChild(dataDir);
    const token = await childToken(child.url);
    for (const s of sent) {
      const res = await keyedPost(child.url, token, s.path, s.body, s.key);
      if (s.answer) expect({ status: res!.status, id: String(res!.body['id']) }, `final retry of ${s.key}`).toEqual(s.answer);
      else {
        expect(res!.status).toBe(201);
        s.answer = { status: 201, id: String(res!.body['id']) };
      }
    }
    const all = (await get(child.url, token, '/estates')) as Array<{ id: string; name: string }>;
    const creates = sent.filter((s) => s.path === '/estates');
    const byName = new Map<string, string[]>();
    for (const e of all) byName.set(e.name, [...(byName.get(e.name) ?? []), e.id]);
    const lost = creates.filter((s) => !byName.has(String(s.body['name'])));
    const twice = creates.filter((s) => (byName.get(String(s.body['name'])) ?? []).length > 1);
    expect({ lost: lost.map((s) => s.key), twice: twice.map((s) => s.key) }).toEqual({ lost: [], twice: [] });
    for (const s of creates) expect(byName.get(String(s.body['name']))).toEqual([s.answer!.id]);
    // Each keyed roof exists exactly once on its estate.
    const roofs = sent.filter((s) => s.path.endsWith('/roofs'));
    const estateIds = [...new Set(roofs.map((s) => s.path.split('/')[2]!))];
    for (const estate of estateIds) {
      const stored = ((await get(child.url, token, `/estates/${estate}`)) as { roofs: Array<{ id: string }> }).roofs
        .map((r) => r.id)
        .sort();
      const expected = roofs
        .filter((s) => s.path.split('/')[2] === estate)
        .map((s) => s.answer!.id)
        .sort();
      expect(stored).toEqual(expected);
    }
    expect(creates.length).toBeGreaterThan(ROUNDS);
  });
});
