import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import type { AccessTokenClaims, Jwks } from '@renopath/contracts';

/** EdDSA (Ed25519): small keys and fast verification on the gateway's hot path. */
export const TOKEN_ALG = 'EdDSA';

interface StoredKey {
  kid: string;
  created_at: string;
  private_jwk: JWK;
  public_jwk: JWK;
}

export interface SigningKeysOptions {
  /** Where the key ring is kept (file mode 0600); null keeps it in memory only (tests). */
  file: string | null;
  /** A key signs for this long before a new one is made. */
  rotateAfterMs: number;
  /** Tokens live this long, so a retired key stays in the JWKS for as long. */
  tokenTtlMs: number;
  now: () => Date;
}

/**
 * The identity service's key ring. The newest key signs; every key that may still have signed an
 * unexpired token is published in the JWKS, so rotation never invalidates a live token.
 */
export class SigningKeys {
  private keys: StoredKey[] = [];
  /** The rotation under way: concurrent signers share it rather than each making (and persisting) a key. */
  private rotating: Promise<StoredKey> | null = null;
  private constructor(private readonly options: SigningKeysOptions) {}

  static async open(options: SigningKeysOptions): Promise<SigningKeys> {
    const ring = new SigningKeys(options);
    if (options.file) {
      try {
        ring.keys = JSON.parse(await readFile(options.file, 'utf8')) as StoredKey[];
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    await ring.rotateIfDue();
    return ring;
  }

  private async rotateIfDue(): Promise<StoredKey> {
    const now = this.options.now().getTime();
    const newest = this.keys.at(-1);
    if (newest && now - Date.parse(newest.created_at) < this.options.rotateAfterMs) return newest;
    this.rotating ??= this.rotate(now).finally(() => (this.rotating = null));
    return this.rotating;
  }

  private async rotate(now: number): Promise<StoredKey> {
    const { privateKey, publicKey } = await generateKeyPair(TOKEN_ALG, { crv: 'Ed25519', extractable: true });
    const kid = randomUUID();
    const key: StoredKey = {
      kid,
      created_at: new Date(now).toISOString(),
      private_jwk: { ...(await exportJWK(privateKey)), kid, alg: TOKEN_ALG },
      public_jwk: { ...(await exportJWK(publicKey)), kid, alg: TOKEN_ALG, use: 'sig' },
    };
    const horizon = this.options.rotateAfterMs + this.options.tokenTtlMs;
    this.keys = [...this.keys.filter((k) => now - Date.parse(k.created_at) < horizon), key];
    await this.persist();
    return key;
  }

  private async persist() {
    const file = this.options.file;
    if (!file) return;
    await mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(this.keys), { mode: 0o600 });
    await rename(tmp, file);
  }

  jwks(): Jwks {
    return { keys: this.keys.map((k) => k.public_jwk as Record<string, unknown>) };
  }

  async sign(claims: Omit<AccessTokenClaims, 'iat' | 'exp' | 'jti'>, ttlSeconds: number): Promise<string> {
    const key = await this.rotateIfDue();
    const privateKey = await importJWK(key.private_jwk, TOKEN_ALG);
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
