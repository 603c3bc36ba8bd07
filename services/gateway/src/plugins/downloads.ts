import contentDisposition from 'content-disposition';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { BlobStore } from '@renopath/platform';
import { HttpError } from '../http/errors.ts';
import { DOWNLOAD_PATH, DownloadSigner } from '../http/signed-links.ts';

declare module 'fastify' {
  interface FastifyInstance {
    signer: DownloadSigner;
  }
}

export interface DownloadsOptions {
  blobs: BlobStore;
  secret: Buffer;
  publicUrl: string;
  now?: () => number;
}

/** Download links are valid for an hour (docs/http-contract.md "Estates and their parts"). */
const DOWNLOAD_LINK_TTL_S = 3600;

/**
 * Signed downloads of files and media: no bearer token, the link's signature is the credential. The
 * routes that reply with `blob_key`s sign them with `app.signer`.
 */
export const downloadsPlugin = fp(
  async (app: FastifyInstance, options: DownloadsOptions) => {
    const signer = new DownloadSigner(options.secret, options.publicUrl, DOWNLOAD_LINK_TTL_S, options.now);
    app.decorate('signer', signer);
    app.get(
      `${DOWNLOAD_PATH}/:blob/:name`,
      // The link is checked by its signature (a bad one is 403, not 400): the handler decides, no schema
      // validates; the OpenAPI document describes it (openapi/document.ts, downloadOperation).
      app.limit ? { onRequest: [app.limit] } : {},
      async (request, reply) => {
        const { blob, name } = request.params as { blob: string; name: string };
        const { expires, signature } = (request.query ?? {}) as Record<string, unknown>;
        const verdict = signer.verify(blob, name, expires, signature);
        // A forged or expired link is refused like a bad credential (403 bodies stay bare: docs/http-contract.md "Errors").
        if (verdict === 'invalid' || verdict === 'expired') throw new HttpError(403);
        const found = await options.blobs.get(verdict.key);
        if (!found) throw new HttpError(404, ['file not found']);
        return reply
          .type(found.content_type)
          .headers({
            // `inline` with an ASCII fallback name and, when that differs, the exact name per RFC 6266 / 5987.
            'content-disposition': contentDisposition(verdict.name, {
              type: 'inline',
              fallback: verdict.name.replace(/[^\x20-\x7e]|["\\]/g, '_'),
            }),
            'content-length': String(found.size),
            'cache-control': 'private, no-store',
            'x-content-type-options': 'nosniff',
            'content-security-policy': "default-src 'none'; sandbox",
          })
          .send(found.body);
      },
    );
  },
  { name: 'renopath-downloads', dependencies: ['renopath-rate-limit'] },
);
