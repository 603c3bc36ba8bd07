import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { refusedAddressReason } from './address-policy.ts';

export { isPublicAddress, refusedAddressReason } from './address-policy.ts';

/**
 * An HTTP(S) client for addresses a caller supplied (EPC documents, webhooks): it reaches public
 * hosts only, so a request cannot be turned against the service's own network (SSRF). The host name
 * is resolved once, every address is checked, and the socket goes to a checked address, so a DNS
 * answer that changes between check and connect (rebinding) is never used.
 */

/** The URL (or a redirect's target) may not be fetched: wrong scheme, or a host on a refused network. */
export class UnsafeUrlError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`refused to fetch ${url}: ${reason}`);
    this.name = 'UnsafeUrlError';
  }
}

/** A limit of the exchange was reached: body size, total time or number of redirects. */
export class FetchLimitError extends Error {
  constructor(
    readonly limit: 'bytes' | 'time' | 'redirects',
    message: string,
  ) {
    super(message);
    this.name = 'FetchLimitError';
  }
}

/** The host could not be resolved or reached, or the connection broke. */
export class FetchFailedError extends Error {
  constructor(
    readonly url: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`could not fetch ${url}: ${reason}`, options);
    this.name = 'FetchFailedError';
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
/** Resolves a host name to all its addresses (tests inject one; the default is dns.lookup with `all`). */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SafeFetchOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Limit over the whole exchange: resolution, connection, every redirect and the body. */
  timeoutMs: number;
  /** Largest body accepted; a longer one is aborted while it streams. */
  maxBytes: number;
  /** Skip the address checks (tests, local setups). The caller decides, e.g. from RENOPATH_ALLOW_PRIVATE_NETWORK. */
  allowPrivateNetwork: boolean;
  /** Redirects followed at most (default 3); each target is checked like the first URL. */
  maxRedirects?: number;
  lookup?: HostLookup;
  /**
   * Test seam: maps a checked address to the one the socket dials, so a test can give a local server
   * a public-looking address. Production callers leave it out.
   */
  dialAddress?: (checked: ResolvedAddress) => ResolvedAddress;
}

export interface SafeFetchResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The URL that answered, after redirects. */
  finalUrl: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DEFAULT_MAX_REDIRECTS = 3;
// Credentials for one origin must not follow a redirect to another.
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

const defaultLookup: HostLookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

export async function safeFetch(url: string, options: SafeFetchOptions): Promise<SafeFetchResponse> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const timedOut = () => new FetchLimitError('time', `no complete answer from ${url} within ${options.timeoutMs} ms`);
  try {
    return await followRedirects(url, options, controller.signal);
  } catch (err) {
    if (controller.signal.aborted && !(err instanceof UnsafeUrlError) && !(err instanceof FetchLimitError && err.limit !== 'time')) {
      throw timedOut();
    }
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

async function followRedirects(startUrl: string, options: SafeFetchOptions, signal: AbortSignal): Promise<SafeFetchResponse> {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let url = checkedUrl(startUrl);
  let method = options.method ?? 'GET';
  let body = options.body;
  const headers = { ...(options.headers ?? {}) };
  for (let hop = 0; ; hop++) {
    const addresses = await resolveChecked(url, options, signal);
    const answer = await exchange(url, method, headers, body, addresses, options, signal);
    const location = answer.headers.location;
    if (!REDIRECTS.has(answer.status) || location === undefined) return { ...answer, finalUrl: url.href };
    if (hop >= maxRedirects) throw new FetchLimitError('redirects', `more than ${maxRedirects} redirects from ${startUrl}`);
    let next: URL;
    try {
      next = checkedUrl(new URL(location, url).href);
    } catch (err) {
      if (err instanceof UnsafeUrlError) throw err;
      throw new UnsafeUrlError(location, 'the redirect target is not a valid URL');
    }
    if (next.origin !== url.origin)
      for (const name of Object.keys(headers)) if (ORIGIN_BOUND_HEADERS.includes(name.toLowerCase())) delete headers[name];
    // 303 always, and 301/302 after a POST by long browser practice, continue as a GET without body.
    if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      for (const name of Object.keys(headers)) if (/^content-(type|length)$/i.test(name)) delete headers[name];
    }
    url = next;
  }
}

/** Parses with the WHATWG parser, which canonicalises odd IPv4 forms (2130706433, 0x7f.1, 0177.0.0.1, 127.1) to dotted decimal. */
function checkedUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError(raw, 'not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UnsafeUrlError(raw, `the scheme ${url.protocol.slice(0, -1)} is not http or https`);
  if (url.username || url.password) throw new UnsafeUrlError(raw, 'URLs with a user name or password are not fetched');
  return url;
}

function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

async function resolveChecked(url: URL, options: SafeFetchOptions, signal: AbortSignal): Promise<ResolvedAddress[]> {
  const host = bareHost(url);
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await abortable((options.lookup ?? defaultLookup)(host), signal);
    } catch (err) {
      if (signal.aborted) throw err;
      throw new FetchFailedError(url.href, `the host ${host} could not be resolved`, { cause: err });
    }
    if (addresses.length === 0) throw new FetchFailedError(url.href, `the host ${host} has no address`);
  }
  if (!options.allowPrivateNetwork) {
    for (const a of addresses) {
      const why = refusedAddressReason(a.address);
      if (why) throw new UnsafeUrlError(url.href, `${literal ? 'the address' : `${host} resolves to`} ${a.address} (${why})`);
    }
  }
  return addresses;
}

function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  addresses: ResolvedAddress[],
  options: SafeFetchOptions,
  signal: AbortSignal,
): Promise<Omit<SafeFetchResponse, 'finalUrl'>> {
  const dial = addresses.map((a) => (options.dialAddress ? options.dialAddress(a) : a));
  // The socket gets the checked addresses instead of a second resolution; Host and SNI still name the URL's host.
  const pinned: LookupFunction = (_host, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, dial);
    else callback(null, dial[0]!.address, dial[0]!.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: pinned,
      agent: false,
      signal,
    });
    request.on('error', (err) => reject(signal.aborted ? err : new FetchFailedError(url.href, err.message, { cause: err })));
    request.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const flat = flattenHeaders(response.headers);
      if (REDIRECTS.has(status) && flat.location !== undefined) {
        response.resume();
        resolve({ status, headers: flat, body: Buffer.alloc(0) });
        return;
      }
      const declared = Number(flat['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        response.destroy();
        reject(new FetchLimitError('bytes', `the answer of ${url.href} is ${declared} bytes, more than the ${options.maxBytes} allowed`));
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > options.maxBytes) {
          response.destroy();
          request.destroy();
          reject(new FetchLimitError('bytes', `the answer of ${url.href} is more than the ${options.maxBytes} bytes allowed`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => resolve({ status, headers: flat, body: Buffer.concat(chunks) }));
      response.on('error', (err) => reject(signal.aborted ? err : new FetchFailedError(url.href, err.message, { cause: err })));
      response.on('close', () => {
        if (!response.complete) reject(new FetchFailedError(url.href, 'the connection closed before the answer was complete'));
      });
    });
    request.end(body);
  });
}

function flattenHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
