export { processEpcDocument, type ProcessOptions, type ProcessedEpcDocument } from './process.ts';
export { downloadEpcDocument, looksLikePdf, EpcDocumentError, type DownloadOptions, type EpcDocumentErrorCode } from './download.ts';
export { extractPdfText, UnreadablePdfError, type ExtractOptions } from './extract-text.ts';
export { parseEpcDocument, type EpcDocumentKind, type EpcFlag, type ParsedEpcDocument, type ParseOptions } from './parse.ts';
