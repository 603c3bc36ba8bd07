import { fold } from '@renopath/platform/service/decider.ts';
import { DomainError } from '@renopath/platform';
import { parse } from '@renopath/platform/service/handler-kit.ts';
import { IdentitySubjects as S, SignDocumentBody, TokenRequestBody, type ServiceRequest, type TokenReply } from '@renopath/contracts';
import { SigningKeys } from './signing-keys.ts';
import { apiClientDecider, apiClientStream } from '../api-client/api-client.decider.ts';
import { C, type ApiClientDoc } from '../directory/directory.projection.ts';
import { verifySecret } from './secrets.ts';
import type { IdentityKit } from '../kit.ts';
import { UUID_PATTERN } from '@renopath/contracts';

const INVALID_CLIENT = new DomainError(400, ['client_id or client_secret is not valid']);

/** The token endpoint and what the gateway needs to verify tokens: keys and revoked clients. */
export function tokenHandlers(kit: IdentityKit) {
  const { store, reads, keys, config, getUser, now } = kit;
  // Without a ring of its own (tests), documents are signed with a memory-only one.
  let documentRing: Promise<SigningKeys> | null = kit.documentKeys ? Promise.resolve(kit.documentKeys) : null;
  const documentKeys = () =>
    (documentRing ??= SigningKeys.open({ file: null, rotateAfterMs: Number.MAX_SAFE_INTEGER / 2, tokenTtlMs: 0, now }));

  const handlers: Record<string, (req: ServiceRequest) => Promise<unknown>> = {
    [S.issueToken]: async (req) => {
      const body = parse(TokenRequestBody, req.body);
      const events = UUID_PATTERN.test(body.client_id) ? await store.readStream(apiClientStream(body.client_id.toLowerCase())) : [];
      const client = fold(
        apiClientDecider,
        events.map((e) => e as never),
      );
      const known = client.exists && !client.revoked;
      // An unknown or revoked id is checked against a dummy hash: its answer takes as long as a wrong secret's.
      const matches = await verifySecret(body.client_secret, known ? client.secret_hash : null);
      if (!known || !matches) throw INVALID_CLIENT;
      // A client whose user left the organization must not act in it any more.
      const user = await getUser(client.user_id);
      if (!user?.organizations.some((m) => m.organization_id === client.organization_id)) throw INVALID_CLIENT;
      const access_token = await keys.sign(
        {
          iss: config.issuer,
          aud: config.audience,
          sub: client.user_id,
          org: client.organization_id,
          client_id: body.client_id.toLowerCase(),
          scope: client.scopes.join(' '),
        },
        config.tokenTtlSeconds,
      );
      return { access_token, expires_in: config.tokenTtlSeconds, token_type: 'Bearer' } satisfies TokenReply;
    },

    [S.jwks]: async () => keys.jwks(),

    [S.documentKeys]: async () => (await documentKeys()).jwks(),

    /** `/.well-known/jwks.json`: the token keys and the document keys (each `kid` is unique). */
    [S.publishedKeys]: async () => {
      const [tokens, documents] = await Promise.all([keys.jwks(), (await documentKeys()).jwks()]);
      return { keys: [...tokens.keys, ...documents.keys] };
    },

    [S.signDocument]: async (req) => {
      const body = parse(SignDocumentBody, req.body);
      return { jws: await (await documentKeys()).signJws(body.payload, body.typ) };
    },

    [S.revokedClients]: async () => {
      const { items } = await reads.query<ApiClientDoc>(C.clients, { filter: { revoked: true } });
      return { client_ids: items.map((c) => c.client_id) };
    },
  };

  return handlers;
}
