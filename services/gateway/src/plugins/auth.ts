import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type {
  FastifyInstance,
  FastifyRequest,
  preSerializationAsyncHookHandler,
  preValidationAsyncHookHandler,
  preValidationHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { IdentitySubjects, Scope, type Actor, type Jwks } from '@renopath/contracts';
import type { Bus, Closeable, EventEnvelope } from '@renopath/platform';
import { HttpError, Unauthorized } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
  interface FastifyInstance {
    auth: {
      verifier: TokenVerifier;
      /** The admin API exists only when an admin token is configured. */
      adminEnabled: boolean;
      bearer: preValidationHookHandler;
      admin: preValidationAsyncHookHandler;
      /** Loads the key set and revocations and follows revocations until the app closes. */
      start(): Promise<void>;
    };
  }
}

export interface AuthOptions {
  bus: Bus;
  issuer: string;
  audience: string;
  adminToken: string | null;
  now?: () => number;
}

/**
 * Who calls: bearer tokens verified against identity's JWKS (jose; keys come over the bus) and the
 * operator's admin token. Routes pick their check as a hook, so a failure answers before the body is
 * validated or anything reaches a service.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, options: AuthOptions) => {
    const verifier = new TokenVerifier({
      bus: options.bus,
      issuer: options.issuer,
      audience: options.audience,
      ...(options.now ? { now: options.now } : {}),
    });
    // The admin token is compared as fixed-length MACs under a key of this process, so timing tells nothing of its length.
    const macKey = randomBytes(32);
    const mac = (value: string) => createHmac('sha256', macKey).update(value).digest();
    const adminToken = options.adminToken ? mac(options.adminToken) : null;
    // The revocation feed `start()` opens ends with the app, not only with the bus under it.
    let revocations: Closeable | null = null;
    app.addHook('onClose', async () => revocations?.close());
    app.decorateRequest('actor', null);

    app.decorate('auth', {
      verifier,
      adminEnabled: adminToken !== null,
      // The scope is checked by `requireScope` after the rate limit, so a token without it still counts.
      // A callback hook: a token seen before is answered without a promise and its microtask (issue 9);
      // an error thrown here reaches the error handler like a rejected async hook's.
      bearer: function bearer(request, _reply, done) {
        const known = verifier.known(request.headers.authorization);
        if (known) {
          request.actor = known;
          return done();
        }
        verifier.verify(request.headers.authorization).then((actor) => {
          request.actor = actor;
          done();
        }, done);
      },
      admin: async function admin(request: FastifyRequest) {
        const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
        if (!given || !adminToken || !timingSafeEqual(mac(given), adminToken)) throw new Unauthorized('bad admin token');
      },
      async start() {
        revocations = await verifier.start(`gateway-revocations-${randomUUID()}`);
      },
    });
  },
  { name: 'renopath-auth' },
);

/** A valid token without the route's scope is refused (403), once the request has been counted. */
export function requireScope(scope: Scope): preValidationHookHandler {
  return function scopeCheck(request, _reply, done) {
    if (!request.actor?.scopes.includes(scope)) throw new HttpError(403);
    done();
  };
}

/**
 * The hook of a route that revokes an API client (`revokesClient`): once identity has revoked it, this
 * gateway refuses the client's tokens before the answer leaves, not when identity's event arrives.
 */
export function revokeClientHook(verifier: TokenVerifier): preSerializationAsyncHookHandler<unknown> {
  return async (request, reply, payload) => {
    if (reply.statusCode < 400) verifier.markRevoked((request.params as Record<string, string>)['client_id']!.toLowerCase());
    return payload;
  };
}

/** How far ahead of ours the issuer's clock may be. */
const MAX_CLOCK_SKEW_S = 60;

interface CachedToken {
  actor: Actor;
  exp: number;
}

export interface TokenVerifierOptions {
  bus: Bus;
  issuer: string;
  audience: string;
  now?: () => number;
  /** How often an unknown `kid` may trigger a JWKS refresh. */
  jwksRefreshIntervalMs?: number;
  cacheSize?: number;
}

/**
 * Verifies bearer tokens against the identity service's JWKS with `alg`, `iss`, `aud` and `exp`
 * pinned. A token that verified once is remembered until it expires (its bytes cannot change), so
 * the hot path is a map lookup; revocation is checked on every request.
 */
export class TokenVerifier {
  private jwks: JWTVerifyGetKey | null = null;
  private lastRefresh = 0;
  /** The key-set fetch under way: requests that meet an unknown `kid` meanwhile wait for it instead of failing. */
  private refreshing: Promise<boolean> | null = null;
  private readonly cache = new Map<string, CachedToken>();
  /**
   * The Authorization header answered last from the cache, with its entry: a client sends the same
   * header on every request, and comparing it is cheaper than hashing a ~700-character token for
   * the map (issue 9). Forgotten whenever its entry leaves the cache.
   */
  private last: { header: string; token: string; entry: CachedToken } | null = null;
  private readonly revoked = new Set<string>();
  private readonly now: () => number;

  constructor(private readonly options: TokenVerifierOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Loads the key set and the revoked clients, and follows revocations as they happen. */
  async start(consumerName: string) {
    await this.refreshKeys(true);
    // Follow new revocations first, then load the earlier ones, so none falls between the two.
    const follow = { subjects: ['evt.identity.ApiClientRevoked'], transient: { idleExpiryMs: 3_600_000 } };
    const subscription = await this.options.bus.consume(consumerName, follow, async (event: EventEnvelope) => {
      this.markRevoked(String(event.data['client_id']));
    });
    try {
      const { client_ids } = await this.options.bus.request<{ client_ids: string[] }>(IdentitySubjects.revokedClients, {});
      for (const id of client_ids) this.revoked.add(id);
    } catch (error) {
      // A verifier that could not start must not leave its feed running.
      await subscription.close();
      throw error;
    }
    return subscription;
  }

  markRevoked(clientId: string) {
    this.revoked.add(clientId);
  }

  private async refreshKeys(force = false): Promise<boolean> {
    if (this.refreshing) return this.refreshing;
    const interval = this.options.jwksRefreshIntervalMs ?? 10_000;
    if (!force && this.now() - this.lastRefresh < interval) return false;
    this.lastRefresh = this.now();
    this.refreshing = (async () => {
      const set = await this.options.bus.request<Jwks>(IdentitySubjects.jwks, {});
      this.jwks = createLocalJWKSet(set as unknown as JSONWebKeySet);
      return true;
    })().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  /**
   * The caller of a token that verified before, at once (no promise: the hot path of every request);
   * null when the token is unknown here and must go through `verify`. Throws for one that expired or
   * whose client was revoked since.
   */
  known(authorization: string | undefined): Actor | null {
    if (!authorization) return null;
    // A token seen before passed the pattern in `verify`, so `Bearer <it>` would match it: skip the regex.
    const last = this.last;
    if (last !== null && authorization === last.header) return this.fromCache(last.token, last.entry);
    if (authorization.startsWith('Bearer ')) {
      const given = authorization.slice(7);
      const seen = this.cache.get(given);
      if (seen) {
        const actor = this.fromCache(given, seen);
        this.last = { header: authorization, token: given, entry: seen };
        return actor;
      }
    }
    return null;
  }

  async verify(authorization: string | undefined): Promise<Actor> {
    if (!authorization) throw new Unauthorized('missing bearer token');
    const known = this.known(authorization);
    if (known) return known;
    // Auth schemes are case-insensitive (RFC 7235 2.1): `bearer` is as good as `Bearer`.
    const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/i.exec(authorization);
    if (!match) throw new Unauthorized('malformed bearer token');
    const token = match[1]!;
    const cached = this.cache.get(token);
    if (cached) return this.fromCache(token, cached);
    const { actor, exp } = await this.verifySignature(token);
    if (this.revoked.has(actor.client_id)) throw new Unauthorized('client revoked');
    if (this.cache.size >= (this.options.cacheSize ?? 10_000)) this.cache.clear(), (this.last = null);
    this.cache.set(token, { actor, exp });
    return actor;
  }

  private fromCache(token: string, cached: CachedToken): Actor {
    if (cached.exp <= Math.floor(this.now() / 1000)) {
      this.cache.delete(token);
      if (this.last?.token === token) this.last = null;
      throw new Unauthorized('token expired');
    }
    if (this.revoked.has(cached.actor.client_id)) throw new Unauthorized('client revoked');
    return cached.actor;
  }

  private async verifySignature(token: string): Promise<CachedToken> {
    if (!this.jwks) await this.refreshKeys(true);
    const attempt = () =>
      jwtVerify(token, this.jwks!, {
        algorithms: ['EdDSA'],
        issuer: this.options.issuer,
        audience: this.options.audience,
        requiredClaims: ['exp', 'iat', 'sub', 'jti'],
        currentDate: new Date(this.now()),
      });
    let result;
    try {
      result = await attempt();
    } catch (err) {
      // A key rotated since we last looked: refresh once, then try again.
      if (err instanceof joseErrors.JWKSNoMatchingKey && (await this.refreshKeys())) {
        try {
          result = await attempt();
        } catch (again) {
          throw new Unauthorized((again as Error).message);
        }
      } else {
        throw new Unauthorized((err as Error).message);
      }
    }
    const p = result.payload;
    // A token issued in the future was not issued by our clock: a forged or replayed-early one.
    if (typeof p.iat !== 'number' || p.iat > Math.floor(this.now() / 1000) + MAX_CLOCK_SKEW_S)
      throw new Unauthorized('token issued in the future');
    const scopes = String(p['scope'] ?? '')
      .split(' ')
      .filter((s): s is Scope => Scope.safeParse(s).success);
    if (typeof p.sub !== 'string' || typeof p['org'] !== 'string' || typeof p['client_id'] !== 'string' || typeof p.exp !== 'number') {
      throw new Unauthorized('token lacks required claims');
    }
    return { actor: { user_id: p.sub, organization_id: p['org'], client_id: p['client_id'], scopes }, exp: p.exp };
  }
}
