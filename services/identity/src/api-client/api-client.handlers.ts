import { randomUUID } from 'node:crypto';
import { fold, handleCommand } from '@renopath/platform/service/decider.ts';
import { DomainError } from '@renopath/platform';
import { parse } from '@renopath/platform/service/handler-kit.ts';
import {
  AdminCreateApiClientBody,
  DEFAULT_SCOPES,
  IdentitySubjects as S,
  SignWebhookBody,
  type ApiClientCreated,
  type Scope,
  type ServiceRequest,
  type WebhookSecretRotated,
} from '@renopath/contracts';
import { apiClientDecider, apiClientStream } from './api-client.decider.ts';
import { hashSecret, newSecret, newWebhookSecret } from '../tokens/secrets.ts';
import type { IdentityKit } from '../kit.ts';
import { UUID_PATTERN } from '@renopath/contracts';
import { signWebhook } from '@renopath/platform/webhooks/sign-webhook.ts';

/** API clients: issued with their secrets, revoked, webhook secrets rotated and opened. */
export function apiClients(kit: IdentityKit) {
  const { store, secrets, ctx, settle, getUser } = kit;

  /** A new API client; the credentials are the bootstrap's configured ones, else both are made here. */
  async function issueClient(
    req: ServiceRequest,
    user_id: string,
    organization_id: string,
    scopes: Scope[],
    { client_id, client_secret }: { client_id: string; client_secret: string } = { client_id: randomUUID(), client_secret: newSecret() },
  ): Promise<ApiClientCreated & { position: bigint | null }> {
    const webhook_secret = newWebhookSecret();
    const result = await handleCommand(
      store,
      apiClientStream(client_id),
      apiClientDecider,
      {
        type: 'IssueApiClient',
        client_id,
        user_id,
        organization_id,
        scopes,
        secret_hash: await hashSecret(client_secret),
        webhook_secret_encrypted: secrets.seal(webhook_secret, client_id),
      },
      ctx(req),
    );
    return { client_id, client_secret, webhook_secret, user_id, organization_id, scopes, position: result.position };
  }

  const handlers: Record<string, (req: ServiceRequest) => Promise<unknown>> = {
    [S.adminCreateApiClient]: async (req) => {
      const body = parse(AdminCreateApiClientBody, req.body);
      const user = await getUser(body.user_id);
      if (!user) throw new DomainError(404, ['user not found']);
      const organization_id = body.organization_id ?? user.organizations[0]?.organization_id;
      if (!organization_id || !user.organizations.some((m) => m.organization_id === organization_id)) {
        throw new DomainError(400, ['organization_id must be an organization the user is a member of']);
      }
      const { position, ...client } = await issueClient(req, user.id, organization_id, body.scopes ?? DEFAULT_SCOPES);
      await settle(position);
      return client;
    },

    [S.adminRevokeApiClient]: async (req) => {
      const client_id = (req.params['client_id'] ?? '').toLowerCase();
      if (!UUID_PATTERN.test(client_id)) throw new DomainError(404, ['API client not found']);
      const result = await handleCommand(
        store,
        apiClientStream(client_id),
        apiClientDecider,
        { type: 'RevokeApiClient', client_id },
        ctx(req),
      );
      await settle(result.position);
      return { client_id, revoked: true };
    },

    [S.adminRotateWebhookSecret]: async (req): Promise<WebhookSecretRotated> => {
      const client_id = (req.params['client_id'] ?? '').toLowerCase();
      if (!UUID_PATTERN.test(client_id)) throw new DomainError(404, ['API client not found']);
      const webhook_secret = newWebhookSecret();
      const result = await handleCommand(
        store,
        apiClientStream(client_id),
        apiClientDecider,
        {
          type: 'RotateWebhookSecret',
          client_id,
          webhook_secret_encrypted: secrets.seal(webhook_secret, client_id),
        },
        ctx(req),
      );
      await settle(result.position);
      return { client_id, webhook_secret };
    },

    // Internal: calculations sends the webhook, identity signs it, so the secret stays here.
    [S.signWebhook]: async (req): Promise<{ signature: string }> => {
      const { client_id, ...message } = parse(SignWebhookBody, req.body);
      const secret = await webhookSecret(client_id);
      if (secret === null) throw new DomainError(404, ['API client not found']);
      return { signature: signWebhook(secret, message) };
    },
  };

  /** The API client's webhook signing secret in clear, for the context that signs webhooks in this process; null when unknown. */
  async function webhookSecret(client_id: string) {
    const client = fold(
      apiClientDecider,
      (await store.readStream(apiClientStream(client_id.toLowerCase()))).map((e) => e as never),
    );
    if (!client.exists) return null;
    if (client.webhook_secret_encrypted) return secrets.open(client.webhook_secret_encrypted, client_id.toLowerCase());
    return client.legacy_webhook_secret;
  }

  return { issueClient, handlers, webhookSecret };
}
export type ApiClients = ReturnType<typeof apiClients>;
