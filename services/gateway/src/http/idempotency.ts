import { createHash, randomUUID } from 'node:crypto';
import type { ReadStore } from '@renopath/platform';
import { HttpError } from './errors.ts';

/**
 * `Idempotency-Key` on POST (API.md 6): per API client, the same key and request within 24 h
 * answer the first answer without doing the work twice; the same key with another request is 422;
 * the same key while the first is still running is 409. Records live behind the read-store port
 * (SQLite file embedded), so every gateway replica sharing the store agrees.
 */
const COLLECTION = 'idempotency_keys';
const WINDOW_MS = 24 * 3600_000;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;

interface KeyRecord {
  fingerprint: string;
  state: 'IN_PROGRESS' | 'DONE';
  status: number | null;
  reply: unknown;
  started_at: number;
  /** Which claim holds the key: an abandoned request that ends late must not finish or free its successor's. */
  claim: string;
}

/** `id` names the claim, not just the key: `complete` and `release` act only while that claim holds it. */
export type Claim = { kind: 'new'; id: string } | { kind: 'replay'; status: number; reply: unknown };

export class IdempotencyKeys {
  constructor(
    private readonly store: ReadStore,
    /** An unfinished request older than this was abandoned (its gateway died): the key may be used again. */
    private readonly abandonAfterMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The header's key, or null when the request has none; a malformed key is a 400. */
  static keyOf(header: string | string[] | undefined): string | null {
    if (header === undefined) return null;
    if (typeof header !== 'string' || !KEY_RE.test(header)) {
      throw new HttpError(400, ['Idempotency-Key must be 1 to 255 visible ASCII characters']);
    }
    return header;
  }

  static fingerprint(parts: Array<string | Buffer>): string {
    const hash = createHash('sha256');
    for (const part of parts) hash.update(createHash('sha256').update(part).digest());
    return hash.digest('hex');
  }

  /** Claims the key for this request, or answers how the earlier request with it went. */
  async claim(client_id: string, key: string, fingerprint: string): Promise<Claim> {
    const id = `${client_id}:${key}`;
    const now = this.now();
    return this.store.transaction(async (tx) => {
      const existing = await tx.get<KeyRecord>(COLLECTION, id);
      const live = existing && now - existing.started_at < WINDOW_MS;
      if (live && existing.fingerprint !== fingerprint) {
        throw new HttpError(422, ['Idempotency-Key was already used with a different request']);
      }
      if (live && existing.state === 'DONE') return { kind: 'replay', status: existing.status!, reply: existing.reply };
      if (live && now - existing.started_at < this.abandonAfterMs) {
        throw new HttpError(409, ['a request with this Idempotency-Key is still in progress']);
      }
      const claim = randomUUID();
      await tx.put<KeyRecord>(COLLECTION, id, { fingerprint, state: 'IN_PROGRESS', status: null, reply: null, started_at: now, claim });
      return { kind: 'new', id: `${claim}/${id}` };
    });
  }

  async complete(claimId: string, status: number, reply: unknown): Promise<void> {
    const [claim, id] = splitClaim(claimId);
    await this.store.transaction(async (tx) => {
      const record = await tx.get<KeyRecord>(COLLECTION, id);
      if (record?.claim === claim) await tx.put<KeyRecord>(COLLECTION, id, { ...record, state: 'DONE', status, reply: reply ?? null });
    });
  }

  /** A failed request leaves no trace: the client may retry with the same key. */
  async release(claimId: string): Promise<void> {
    const [claim, id] = splitClaim(claimId);
    await this.store.transaction(async (tx) => {
      if ((await tx.get<KeyRecord>(COLLECTION, id))?.claim === claim) await tx.delete(COLLECTION, id);
    });
  }
}

function splitClaim(claimId: string): [claim: string, id: string] {
  const slash = claimId.indexOf('/');
  return [claimId.slice(0, slash), claimId.slice(slash + 1)];
}
