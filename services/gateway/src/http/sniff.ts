import { fileTypeFromBuffer } from 'file-type';

/** Office 97-2003 documents, told apart by `legacyOffice` (file-type names them all alike). */
const LEGACY_OFFICE = ['application/msword', 'application/vnd.ms-powerpoint', 'application/vnd.ms-excel'] as const;

/**
 * The media type of an upload, decided from its bytes (docs/http-contract.md "Estates and their parts") by `file-type`: the client's
 * content type and file name are not trusted. Only the types Renopath accepts come out; anything
 * else is null.
 */
export const RECOGNISED_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/tiff',
  'video/mp4',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  ...LEGACY_OFFICE,
]);

export async function sniffMediaType(bytes: Buffer): Promise<string | null> {
  if (bytes.length === 0) return null;
  const found = await fileTypeFromBuffer(bytes);
  if (!found) return null;
  // file-type names every OLE2 compound file alike; Word, Excel and PowerPoint 97-2003 differ only inside.
  if (found.mime === 'application/x-cfb') return legacyOffice(bytes);
  return RECOGNISED_MEDIA_TYPES.has(found.mime) ? found.mime : null;
}

/** The stream names of an OLE2 file's directory (UTF-16) tell which Office 97-2003 document it is. */
function legacyOffice(bytes: Buffer): string | null {
  const [word, powerPoint, excel] = LEGACY_OFFICE;
  const text = bytes.toString('utf16le');
  if (text.includes('WordDocument')) return word;
  if (text.includes('PowerPoint Document')) return powerPoint;
  if (text.includes('Workbook') || text.includes('Book')) return excel;
  return null;
}
