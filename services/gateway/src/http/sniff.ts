/**
 * The media type of an upload, decided from its bytes (API.md 4.3): the client's content type and
 * file name are not trusted. Only the types Renopath accepts are recognised; anything else is null.
 */

const startsWith = (bytes: Buffer, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString('latin1');

const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP = [0x50, 0x4b, 0x03, 0x04];
/** ISO base-media brands of MP4 video (not HEIF images or QuickTime). */
const MP4_BRANDS = new Set(['isom', 'iso2', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'dash', 'M4V ', 'MSNV', 'mmp4', 'f4v ']);

export function sniffMediaType(bytes: Buffer): string | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf'; // %PDF-
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return 'image/gif';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (ascii(bytes, 4, 8) === 'ftyp' && MP4_BRANDS.has(ascii(bytes, 8, 12))) return 'video/mp4';
  if (startsWith(bytes, OLE2)) return legacyOffice(bytes);
  if (startsWith(bytes, ZIP)) return zipOffice(bytes);
  return null;
}

/**
 * Word, Excel and PowerPoint 97-2003 files are OLE2 compound files; their stream names (UTF-16 in the
 * directory) tell which one it is.
 */
function legacyOffice(bytes: Buffer): string | null {
  const text = bytes.toString('utf16le');
  if (text.includes('WordDocument')) return 'application/msword';
  if (text.includes('PowerPoint Document')) return 'application/vnd.ms-powerpoint';
  if (text.includes('Workbook') || text.includes('Book')) return 'application/vnd.ms-excel';
  return null;
}

/** Office Open XML and OpenDocument files are ZIP archives; their entry names tell which one. */
function zipOffice(bytes: Buffer): string | null {
  const names = zipEntryNames(bytes);
  if (!names) return null;
  if (names.includes('mimetype')) {
    // ODF: the first entry, stored uncompressed, is the media type itself.
    const nameLength = bytes.readUInt16LE(26);
    const extraLength = bytes.readUInt16LE(28);
    const start = 30 + nameLength + extraLength;
    const declared = ascii(bytes, start, start + 60);
    for (const kind of ['text', 'spreadsheet', 'presentation']) {
      const type = `application/vnd.oasis.opendocument.${kind}`;
      if (declared.startsWith(type) && !declared.startsWith(`${type}-`)) return type;
    }
    return null;
  }
  if (!names.includes('[Content_Types].xml')) return null;
  if (names.some((n) => n.startsWith('word/'))) return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  if (names.some((n) => n.startsWith('xl/'))) return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  if (names.some((n) => n.startsWith('ppt/'))) return 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
  return null;
}

/** Entry names from the ZIP central directory; null when the archive is not well formed. */
function zipEntryNames(bytes: Buffer): string[] | null {
  const EOCD = 0x06054b50;
  const CENTRAL = 0x02014b50;
  // The end-of-central-directory record sits in the last 22 + 65535 (comment) bytes.
  const floor = Math.max(0, bytes.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= floor; i--) {
    if (bytes.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = bytes.readUInt16LE(eocd + 10);
  let offset = bytes.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== CENTRAL) return null;
    const nameLength = bytes.readUInt16LE(offset + 28);
    const extraLength = bytes.readUInt16LE(offset + 30);
    const commentLength = bytes.readUInt16LE(offset + 32);
    names.push(bytes.subarray(offset + 46, offset + 46 + nameLength).toString('utf8'));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}
