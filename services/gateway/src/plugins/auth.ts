import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler, preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Actor, Scope } from '@renopath/contracts';
import type { Bus, Closeable } from '@renopath/platform';
import { TokenVerifier, Unauthorized } from '../http/auth.ts';
import { HttpError } from '../http/errors.ts';

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
