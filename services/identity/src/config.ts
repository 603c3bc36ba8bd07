import { z } from 'zod';
import { TOKEN_DEFAULTS } from '@renopath/contracts';
import { parseServiceEnv, ServiceEnv, PublicUrlEnv, publicUrlOf, type ServiceConfig } from '@renopath/platform/service/platform-env.ts';
import { parseSecretsKey } from './webhook-secrets/secret-box.ts';

/** The identity service's configuration, parsed once at start-up (house style: one config module per service). */
const Env = ServiceEnv.extend({
  RENOPATH_TOKEN_TTL_S: z.coerce.number().int().min(60).max(86_400).default(3600),
  RENOPATH_TOKEN_ISSUER: z.string().min(1).default(TOKEN_DEFAULTS.issuer),
  RENOPATH_TOKEN_AUDIENCE: z.string().min(1).default(TOKEN_DEFAULTS.audience),
  RENOPATH_SIGNING_KEY_ROTATION_DAYS: z.coerce.number().min(1).default(30),
  RENOPATH_BOOTSTRAP_CLIENT_ID: z.uuid({ error: 'RENOPATH_BOOTSTRAP_CLIENT_ID must be a UUID' }).optional(),
  RENOPATH_BOOTSTRAP_CLIENT_SECRET: z.string().min(32, 'RENOPATH_BOOTSTRAP_CLIENT_SECRET must be at least 32 characters').optional(),
  ...PublicUrlEnv,
  // Empty counts as unset, so a compose file can leave the variable blank.
  RENOPATH_SMTP_URL: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^smtps?:\/\/[^/\s]+/.test(v), 'RENOPATH_SMTP_URL must be an smtp:// or smtps:// URL'),
  RENOPATH_MAIL_FROM: z.string().min(3).max(320).default('Renopath <no-reply@renopath.invalid>'),
  RENOPATH_SECRETS_KEY: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || parseSecretsKey(v) !== null, 'RENOPATH_SECRETS_KEY must be 32 bytes as 64 hex characters or base64'),
});

export interface IdentityServiceConfig extends ServiceConfig {
  tokenTtlSeconds: number;
  issuer: string;
  audience: string;
  keyRotationMs: number;
  bootstrap: { client_id?: string; client_secret?: string };
  /** Base of the links in messages (the gateway's public address). */
  publicUrl: string;
  /** null: the outbox under the data dir (embedded), read with `renopath outbox`. */
  smtpUrl: string | null;
  mailFrom: string;
  /** null: generated once into the identity data dir. */
  secretsKey: Buffer | null;
}

export function loadIdentityConfig(env: NodeJS.ProcessEnv = process.env): IdentityServiceConfig {
  const { env: e, config } = parseServiceEnv(Env, env);
  return {
    ...config,
    tokenTtlSeconds: e.RENOPATH_TOKEN_TTL_S,
    issuer: e.RENOPATH_TOKEN_ISSUER,
    audience: e.RENOPATH_TOKEN_AUDIENCE,
    keyRotationMs: e.RENOPATH_SIGNING_KEY_ROTATION_DAYS * 86_400_000,
    bootstrap: {
      ...(e.RENOPATH_BOOTSTRAP_CLIENT_ID ? { client_id: e.RENOPATH_BOOTSTRAP_CLIENT_ID } : {}),
      ...(e.RENOPATH_BOOTSTRAP_CLIENT_SECRET ? { client_secret: e.RENOPATH_BOOTSTRAP_CLIENT_SECRET } : {}),
    },
    publicUrl: publicUrlOf(e),
    smtpUrl: e.RENOPATH_SMTP_URL ?? null,
    mailFrom: e.RENOPATH_MAIL_FROM,
    secretsKey: e.RENOPATH_SECRETS_KEY ? parseSecretsKey(e.RENOPATH_SECRETS_KEY) : null,
  };
}
