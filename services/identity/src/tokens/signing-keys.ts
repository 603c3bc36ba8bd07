import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CompactSign, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import {
  exact,
  NO_STREAM,
  WrongExpectedRevisionError,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
} from '@renopath/platform';
import type { AccessTokenClaims, Jwks } from '@renopath/contracts';
import type { SecretBox } from '../webhook-secrets/secret-box.ts';

/** EdDSA (Ed25519): small keys and fast verification on the gateway's hot path. */
export const TOKEN_ALG = 'EdDSA';

/** The identity store's stream of signing keys, the ring every replica signs with; private (`_`): the relay does not publish it. */
export const SIGNING_KEYS_STREAM = '_signing-keys';
/** A key joined the ring: its public JWK in clear, its private JWK sealed under RENOPATH_SECRETS_KEY. */
export const SIGNING_KEY_ADDED = 'SigningKeyAdded';

interface StoredKey {
  kid: string;
  created_at: string;
  /** Null for a key of the shared ring this replica cannot open (another secrets key): it verifies, never signs. */
  private_jwk: JWK | null;
  public_jwk: JWK;
}

interface SigningKeyAdded {
  kid: string;
  created_at: string;
  public_jwk: JWK;
  sealed_private_jwk: string;
}

/** Where the replicas of identity keep their common ring: its event store, private keys sealed with the secrets key. */
export interface SharedRing {
  eventStore: EventStore;
  secrets: SecretBox;
}

export interface SigningKeysOptions {
  /**
   * This replica's copy of the ring (file mode 0600); null keeps it in memory only (tests). With a
   * shared ring, the copy is read only when the stream has no key yet: the keys of a single replica
   * from before the ring was shared then join it, so the tokens they signed stay valid.
   */
  file: string | null;
  /** The ring every replica reads (identity's event store); null: this process's ring only (tests). */
  shared?: SharedRing | null;
  /** A key signs for this long before a new one is made. */
  rotateAfterMs: number;
  /** Tokens live this long, so a retired key stays in the JWKS for as long. */
  tokenTtlMs: number;
  now: () => Date;
  /** The ring's stream in identity's event store (default SIGNING_KEYS_STREAM, the token keys). */
  stream?: string;
}

/** The ring of the document keys (renovation passports): never rotated, so a signature made years ago still verifies. */
export const DOCUMENT_KEYS_STREAM = '_document-signing-keys';

const sealedFor = (kid: string) => `signing-key:${kid}`;

/**
 * The identity service's key ring. The newest key signs; every key that may still have signed an
 * unexpired token is published in the JWKS, so rotation never invalidates a live token.
 *
 * With more than one replica the ring lives in identity's event store (stream `signing-keys`): a key is
 * added with an expected revision, so replicas that rotate at once add one key between them (the
 * loser reads the winner's and signs with it); the JWKS is read from the stream, so whichever replica
 * answers it lists the keys of every replica. A key whose private part this replica cannot open (its
 * RENOPATH_SECRETS_KEY differs) is published but never signs with here: such a replica adds its own.
 */
export class SigningKeys {
  private keys: StoredKey[] = [];
  /** The stream's revision read so far (null: none yet). */
  private revision: bigint | null = null;
  /** The rotation under way: concurrent signers share it rather than each making (and persisting) a key. */
  private rotating: Promise<StoredKey> | null = null;
  private reading: Promise<void> | null = null;
  private constructor(private readonly options: SigningKeysOptions) {}

  private get stream(): string {
    return this.options.stream ?? SIGNING_KEYS_STREAM;
  }

  static async open(options: SigningKeysOptions): Promise<SigningKeys> {
    const ring = new SigningKeys(options);
    const copy = await ring.readCopy();
    if (options.shared) {
      await ring.refresh();
      if (ring.revision === null && copy.length > 0) await ring.adopt(copy);
    } else {
      ring.keys = copy;
    }
    await ring.signingKey();
    return ring;
  }

  private async readCopy(): Promise<StoredKey[]> {
    if (!this.options.file) return [];
    try {
      return JSON.parse(await readFile(this.options.file, 'utf8')) as StoredKey[];
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      return [];
    }
  }

  /** Keys made before the ring was shared join the stream (once: another replica may have done it). */
  private async adopt(copy: StoredKey[]): Promise<void> {
    const now = this.options.now().getTime();
    const live = copy.filter((k) => k.private_jwk && now - Date.parse(k.created_at) < this.horizon());
    if (live.length === 0) return;
    try {
      await this.append(live, NO_STREAM);
    } catch (err) {
      if (!(err instanceof WrongExpectedRevisionError)) throw err;
    }
    await this.refresh();
  }

  private horizon(): number {
    return this.options.rotateAfterMs + this.options.tokenTtlMs;
  }

  /** Reads what the other replicas added to the stream since the last read (one read at a time). */
  private refresh(): Promise<void> {
    this.reading ??= this.readStream().finally(() => (this.reading = null));
    return this.reading;
  }

  private async readStream(): Promise<void> {
    const shared = this.options.shared!;
    const events = await shared.eventStore.readStream(this.stream, this.revision === null ? {} : { fromRevision: this.revision + 1n });
    if (events.length === 0) return;
    const known = new Set(this.keys.map((k) => k.kid));
    for (const event of events) {
      const key = this.keyOf(event, shared.secrets);
      if (key && !known.has(key.kid)) {
        this.keys.push(key);
        known.add(key.kid);
      }
    }
    this.revision = events.at(-1)!.revision;
    const now = this.options.now().getTime();
    this.keys = this.keys
      .filter((k) => now - Date.parse(k.created_at) < this.horizon())
      .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
    await this.persist();
  }

  private keyOf(event: RecordedEvent, secrets: SecretBox): StoredKey | null {
    if (event.type !== SIGNING_KEY_ADDED) return null;
    const data = event.data as unknown as SigningKeyAdded;
    let private_jwk: JWK | null = null;
    try {
      private_jwk = JSON.parse(secrets.open(data.sealed_private_jwk, sealedFor(data.kid))) as JWK;
    } catch {
      // Sealed under another secrets key: the key still verifies (its public part is in clear).
    }
    return { kid: data.kid, created_at: data.created_at, private_jwk, public_jwk: data.public_jwk };
  }

  private async append(keys: StoredKey[], expected: ExpectedRevision): Promise<void> {
    const secrets = this.options.shared!.secrets;
    const events: NewEvent[] = keys.map((k) => ({
      event_id: randomUUID(),
      type: SIGNING_KEY_ADDED,
      data: {
        kid: k.kid,
        created_at: k.created_at,
        public_jwk: k.public_jwk,
        sealed_private_jwk: secrets.seal(JSON.stringify(k.private_jwk), sealedFor(k.kid)),
      } satisfies SigningKeyAdded as unknown as Record<string, unknown>,
      metadata: { actor: { user_id: null, client_id: null }, correlation_id: k.kid, causation_id: null },
      occurred_at: k.created_at,
    }));
    await this.options.shared!.eventStore.append(this.stream, events, expected);
  }

  /** The newest key this replica can sign with, while it is not due for rotation. */
  private current(): StoredKey | undefined {
    const now = this.options.now().getTime();
    for (let i = this.keys.length - 1; i >= 0; i--) {
      const key = this.keys[i]!;
      if (now - Date.parse(key.created_at) >= this.options.rotateAfterMs) return undefined;
      if (key.private_jwk) return key;
    }
    return undefined;
  }

  private async signingKey(): Promise<StoredKey> {
    const key = this.current();
    if (key) return key;
    this.rotating ??= this.rotate().finally(() => (this.rotating = null));
    return this.rotating;
  }

  private async rotate(): Promise<StoredKey> {
    for (let attempt = 0; ; attempt++) {
      if (this.options.shared) {
        // Another replica may have rotated already: its key is the one to sign with.
        await this.refresh();
        const theirs = this.current();
        if (theirs) return theirs;
      }
      const key = await this.newKey();
      if (!this.options.shared) {
        const now = this.options.now().getTime();
        this.keys = [...this.keys.filter((k) => now - Date.parse(k.created_at) < this.horizon()), key];
        await this.persist();
        return key;
      }
      try {
        await this.append([key], this.revision === null ? NO_STREAM : exact(this.revision));
      } catch (err) {
        // A replica added a key since this one read the stream: read it, and sign with it if it is fresh.
        if (err instanceof WrongExpectedRevisionError && attempt < 5) continue;
        throw err;
      }
      await this.refresh();
      return this.current() ?? key;
    }
  }

  private async newKey(): Promise<StoredKey> {
    const { privateKey, publicKey } = await generateKeyPair(TOKEN_ALG, { crv: 'Ed25519', extractable: true });
    const kid = randomUUID();
    return {
      kid,
      created_at: this.options.now().toISOString(),
      private_jwk: { ...(await exportJWK(privateKey)), kid, alg: TOKEN_ALG },
      public_jwk: { ...(await exportJWK(publicKey)), kid, alg: TOKEN_ALG, use: 'sig' },
    };
  }

  private async persist() {
    const file = this.options.file;
    if (!file) return;
    await mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${randomUUID()}.tmp`;
    await writeFile(tmp, JSON.stringify(this.keys.filter((k) => k.private_jwk)), { mode: 0o600 });
    await rename(tmp, file);
  }

  /** The public keys of every key that may have signed a live token, read afresh from the shared ring. */
  async jwks(): Promise<Jwks> {
    if (this.options.shared) {
      // A read that began before this call may miss a key added just now: the answer comes from a read that begins after it.
      await this.reading?.catch(() => undefined);
      await this.refresh();
    }
    const now = this.options.now().getTime();
    return {
      keys: this.keys.filter((k) => now - Date.parse(k.created_at) < this.horizon()).map((k) => k.public_jwk as Record<string, unknown>),
    };
  }

  /**
   * A compact JWS over `payload` (JSON) with the current key: a document's signature, not a token
   * (no expiry; `typ` names the kind of document so it is never taken for an access token).
   */
  async signJws(payload: Record<string, unknown>, typ: string): Promise<string> {
    const key = await this.signingKey();
    const privateKey = await importJWK(key.private_jwk!, TOKEN_ALG);
    return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: TOKEN_ALG, kid: key.kid, typ })
      .sign(privateKey);
  }

  async sign(claims: Omit<AccessTokenClaims, 'iat' | 'exp' | 'jti'>, ttlSeconds: number): Promise<string> {
    const key = await this.signingKey();
    const privateKey = await importJWK(key.private_jwk!, TOKEN_ALG);
    const iat = Math.floor(this.options.now().getTime() / 1000);
    return new SignJWT({ org: claims.org, client_id: claims.client_id, scope: claims.scope })
      .setProtectedHeader({ alg: TOKEN_ALG, kid: key.kid, typ: 'JWT' })
      .setIssuer(claims.iss)
      .setAudience(claims.aud)
      .setSubject(claims.sub)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .setJti(randomUUID())
      .sign(privateKey);
  }
}
