import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isReportLanguage } from '../../src/i18n/index.ts';
import { renderReferralNotFound, renderReferralPage } from '../../src/referral-page/index.ts';
import { REPORT_LANGUAGES, type ReportModel } from '../../src/report-model.ts';

/** The headers the gateway sends with its html routes (services/gateway/src/routes/declared.ts, HTML_HEADERS). */
export const GATEWAY_HTML_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors *",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export interface ServedPage {
  model: ReportModel;
  showHouseNumber: boolean;
}

/**
 * `/r/{token}` the way the gateway will serve it: the page in `?lang=` (else the model's language),
 * the not-found page with 404 for any other token, and everything else a plain 404.
 */
export async function servePages(pages: Record<string, ServedPage>): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/r\/([\w-]+)$/.exec(url.pathname);
    const asked = url.searchParams.get('lang');
    if (req.method !== 'GET' || !match) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    const page = pages[match[1]!];
    const language = isReportLanguage(asked) ? asked : (page?.model.language ?? 'en');
    const html = page
      ? renderReferralPage(
          { ...page.model, language },
          { languages: REPORT_LANGUAGES, hrefFor: (l) => `?lang=${l}`, showHouseNumber: page.showHouseNumber },
        )
      : renderReferralNotFound(language);
    res.writeHead(page ? 200 : 404, { ...GATEWAY_HTML_HEADERS, 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
