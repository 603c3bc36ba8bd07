import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { buildAsyncApiDocument, type AsyncApiOptions } from '../asyncapi/document.ts';
import { buildOpenApiDocument } from '../openapi/document.ts';
import type { RouteDef } from '../routes/route.ts';
import { PASSPORT_SCHEMA_PATH, renovationPassportJsonSchema } from '@renopath/contracts';

export interface DocsOptions {
  publicUrl: string;
  /** The route table the document describes (routes/index.ts). */
  routes: readonly RouteDef[];
  adminEnabled: boolean;
  rateLimited: boolean;
  /** Where `/asyncapi.json` says the events are published. */
  events: AsyncApiOptions;
}

/** The mark at the top of /docs: the product's name rather than the viewer's (served inline, no CDN). */
const LOGO = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="150" height="32" viewBox="0 0 150 32"><rect width="32" height="32" rx="6" fill="#1f7a4d"/>' +
    '<path d="M8 22V12l8-5 8 5v10h-5v-6h-6v6z" fill="#fff"/><text x="40" y="22" font-family="sans-serif" font-size="18" font-weight="600" fill="#fff">Renopath</text></svg>',
);

/**
 * `/openapi.json`, generated from the route table and the zod contracts (openapi/document.ts) on the
 * first request and kept: the routes do not change while the app runs. `/docs` is swagger-ui, branded
 * Renopath and served from the assets in its package (no CDN: the service runs offline), reading the
 * same document. `@fastify/swagger` is registered only because swagger-ui needs its `swagger()`
 * decorator; it is given the generated document instead of collecting routes itself.
 */
export const docsPlugin = fp(
  async (app: FastifyInstance, options: DocsOptions) => {
    let document: Record<string, unknown> | null = null;
    const documentOf = () => (document ??= buildOpenApiDocument(options));
    // Static mode with a placeholder under another name; `swagger()` (read by swagger-ui) is ours.
    await app.register(swagger, {
      mode: 'static',
      specification: { document: { openapi: '3.1.0', info: { title: 'Renopath API', version: '1.0.0' }, paths: {} } },
      decorator: 'staticSwagger',
    } as never);
    app.decorate('swagger', (() => documentOf()) as never);
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: true,
      logo: { type: 'image/svg+xml', content: LOGO },
      theme: { title: 'Renopath API' },
      // Tags in the document's order (auth, users, ... admin last): the page opens on what a client calls first.
      uiConfig: { docExpansion: 'list', deepLinking: false },
    });
    app.get('/openapi.json', async () => documentOf());
    // The domain events as a contract too: generated from the zod event contracts, kept like the other.
    let events: Record<string, unknown> | null = null;
    app.get('/asyncapi.json', async () => (events ??= buildAsyncApiDocument(options.events)));
    // The renovation passport's JSON Schema (2020-12), from its zod contract, for validators outside Renopath.
    let passportSchema: Record<string, unknown> | null = null;
    app.get(PASSPORT_SCHEMA_PATH, async (_request, reply) =>
      reply.type('application/schema+json').send((passportSchema ??= renovationPassportJsonSchema(options.publicUrl))),
    );
  },
  { name: 'renopath-docs' },
);
