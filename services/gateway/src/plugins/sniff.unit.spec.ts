import { describe, expect, it } from 'vitest';
import { DOCX, EXE, HEIC, HTML, JPEG, MP4, ODT, OLE2_WORD, PDF, PLAIN_ZIP, PNG, WEBP, XLSX } from '../../test/files.ts';
import { sniffMediaType } from './uploads.ts';

describe('media type from the bytes', () => {
  it('recognises the documents and images Renopath accepts', async () => {
    expect(await sniffMediaType(PDF)).toBe('application/pdf');
    expect(await sniffMediaType(PNG)).toBe('image/png');
    expect(await sniffMediaType(JPEG)).toBe('image/jpeg');
    expect(await sniffMediaType(WEBP)).toBe('image/webp');
    expect(await sniffMediaType(MP4)).toBe('video/mp4');
    expect(await sniffMediaType(OLE2_WORD)).toBe('application/msword');
    expect(await sniffMediaType(DOCX)).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(await sniffMediaType(XLSX)).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(await sniffMediaType(ODT)).toBe('application/vnd.oasis.opendocument.text');
  });

  it('recognises nothing else: executables, HTML, HEIF images, plain archives, empty files', async () => {
    for (const bytes of [EXE, HTML, HEIC, PLAIN_ZIP, Buffer.alloc(0), Buffer.from('%PD')]) expect(await sniffMediaType(bytes)).toBeNull();
  });
});
