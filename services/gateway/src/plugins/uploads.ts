import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { UPLOAD_LIMITS } from '../http/uploads.ts';

export const ONE_MIB = 1024 * 1024;

/**
 * Request bodies besides JSON: multipart uploads are streamed (routes of kind `upload` read them
 * with `readUpload`; size and part limits: docs/http-contract.md "General rules") and forms are parsed for the token endpoint
 * (RFC 6749); every other route refuses a form as a wrong content type.
 */
export const uploadsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(multipart, { limits: UPLOAD_LIMITS, throwFileSizeLimit: true });
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: ONE_MIB }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
  },
  { name: 'renopath-uploads' },
);
