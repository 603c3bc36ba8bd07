import {
  FetchFailedError,
  FetchLimitError,
  safeFetch,
  UnsafeUrlError,
  type HostLookup,
  type ResolvedAddress,
} from '@renopath/platform/net/safe-fetch.ts';

/** Why an EPC document could not be processed; the code goes to the job's `metadata.error.code`. */
export type EpcDocumentErrorCode =
  | 'EPC_URL_REFUSED'
  | 'EPC_DOWNLOAD_FAILED'
  | 'EPC_DOWNLOAD_TIMEOUT'
  | 'EPC_DOCUMENT_TOO_LARGE'
  | 'EPC_NOT_A_PDF'
  | 'EPC_UNREADABLE'
  | 'EPC_NO_TEXT'
  | 'EPC_NOT_RECOGNISED';

/** A document that cannot be processed, with a message a client can read. */
export class EpcDocumentError extends Error {
  constructor(
    readonly code: EpcDocumentErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EpcDocumentError';
  }
}

export interface DownloadOptions {
  /** From RENOPATH_ALLOW_PRIVATE_NETWORK: true lets the URL point at private, loopback and link-local hosts. */
  allowPrivateNetwork: boolean;
  timeoutMs: number;
  maxBytes: number;
  /** Test seams of safeFetch. */
  lookup?: HostLookup;
  dialAddress?: (checked: ResolvedAddress) => ResolvedAddress;
}

const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');

/** Whether the bytes are a PDF: the header "%PDF-", after at most a byte-order mark or white space some servers add. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 1024));
  let start = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) start = 3;
  while (start < head.length && (head[start] === 0x20 || head[start] === 0x09 || head[start] === 0x0a || head[start] === 0x0d)) start++;
  return head.subarray(start, start + PDF_MAGIC.length).equals(PDF_MAGIC);
}

/** Downloads the EPC document behind `url` through the SSRF-guarded fetch and checks that it is a PDF. */
export async function downloadEpcDocument(url: string, options: DownloadOptions): Promise<Uint8Array> {
  let answer;
  try {
    answer = await safeFetch(url, {
      method: 'GET',
      headers: { accept: 'application/pdf' },
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
      allowPrivateNetwork: options.allowPrivateNetwork,
      ...(options.lookup ? { lookup: options.lookup } : {}),
      ...(options.dialAddress ? { dialAddress: options.dialAddress } : {}),
    });
  } catch (err) {
    throw asDocumentError(err, options.maxBytes);
  }
  if (answer.status < 200 || answer.status > 299) {
    throw new EpcDocumentError('EPC_DOWNLOAD_FAILED', `the EPC document could not be downloaded: the server answered ${answer.status}`);
  }
  if (!looksLikePdf(answer.body)) {
    const type = answer.headers['content-type']?.split(';')[0]?.trim();
    throw new EpcDocumentError('EPC_NOT_A_PDF', `the EPC document at epc_url is not a PDF${type ? ` (the server sent ${type})` : ''}`);
  }
  return new Uint8Array(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength);
}

function asDocumentError(err: unknown, maxBytes: number): EpcDocumentError {
  if (err instanceof UnsafeUrlError) {
    return new EpcDocumentError('EPC_URL_REFUSED', `epc_url may not be fetched: ${err.reason}`, { cause: err });
  }
  if (err instanceof FetchLimitError) {
    if (err.limit === 'bytes')
      return new EpcDocumentError('EPC_DOCUMENT_TOO_LARGE', `the EPC document is larger than the ${formatBytes(maxBytes)} allowed`, {
        cause: err,
      });
    if (err.limit === 'time')
      return new EpcDocumentError('EPC_DOWNLOAD_TIMEOUT', 'the EPC document could not be downloaded in time', { cause: err });
    return new EpcDocumentError('EPC_DOWNLOAD_FAILED', 'the EPC document could not be downloaded: too many redirects', { cause: err });
  }
  if (err instanceof FetchFailedError) {
    return new EpcDocumentError('EPC_DOWNLOAD_FAILED', `the EPC document could not be downloaded: ${err.message}`, { cause: err });
  }
  return new EpcDocumentError('EPC_DOWNLOAD_FAILED', `the EPC document could not be downloaded: ${(err as Error).message ?? String(err)}`, {
    cause: err,
  });
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(n / 1024)} kB`;
}
