import { EpcDocumentError, downloadEpcDocument, type DownloadOptions, type EpcDocumentErrorCode } from './download.ts';
import { extractPdfText, UnreadablePdfError, type ExtractOptions } from './extract-text.ts';
import { parseEpcDocument, type ParsedEpcDocument } from './parse.ts';

export interface ProcessOptions extends DownloadOptions {
  /** The day the certificate is judged on (expiry); defaults to now. */
  today?: Date;
  /** Limits of reading the PDF (pages, time, memory); defaults in extract-text.ts. */
  extract?: ExtractOptions;
}

export type ProcessedEpcDocument =
  | ({ ok: true } & ParsedEpcDocument & { kind: Exclude<ParsedEpcDocument['kind'], 'UNKNOWN'> })
  | { ok: false; code: EpcDocumentErrorCode; message: string };

/**
 * Downloads, reads and parses the EPC document of a job (docs/job-metadata.md, EPC_DOCUMENT_PROCESSING). A bad
 * document is an answer, never an exception: each way of failing has a code and a plain message.
 */
export async function processEpcDocument(url: string, options: ProcessOptions): Promise<ProcessedEpcDocument> {
  try {
    const bytes = await downloadEpcDocument(url, options);
    let text: string;
    try {
      text = await extractPdfText(bytes, options.extract);
    } catch (err) {
      if (err instanceof UnreadablePdfError) {
        return { ok: false, code: 'EPC_UNREADABLE', message: `the EPC document could not be read: ${err.message}` };
      }
      throw err;
    }
    if (text.trim().length === 0) {
      return {
        ok: false,
        code: 'EPC_NO_TEXT',
        message: 'the EPC document contains no text (a scanned certificate cannot be read); send the data as fields instead',
      };
    }
    const parsed = parseEpcDocument(text, options.today ? { today: options.today } : {});
    if (parsed.kind === 'UNKNOWN') {
      return {
        ok: false,
        code: 'EPC_NOT_RECOGNISED',
        message: 'the document at epc_url is neither a Flemish EPC nor a Dutch energielabel',
      };
    }
    return { ok: true, ...parsed, kind: parsed.kind };
  } catch (err) {
    if (err instanceof EpcDocumentError) return { ok: false, code: err.code, message: err.message };
    return {
      ok: false,
      code: 'EPC_UNREADABLE',
      message: `the EPC document could not be processed: ${(err as Error).message ?? String(err)}`,
    };
  }
}
