import { DomainError } from '@renopath/platform';
import { newId, parse } from '@renopath/platform/service/handler-kit.ts';
import { UploadedFile, type FileKind } from '@renopath/contracts';
import { C, type EstateDetailDoc } from '../estate-views/estate-views.projection.ts';
import { renderFile } from '../estate-views/estate-views.render.ts';
import { idParam } from '@renopath/platform/service/handler-kit.ts';
import type { EstatesKit, Handler } from '../kit/estates-kit.ts';

/** Files and media: the gateway stores the upload's bytes, the estate records the file. */
export function fileHandlers(kit: EstatesKit, kind: FileKind): Record<'add' | 'remove', Handler> {
  const list = kind === 'FILE' ? 'files' : 'media';
  const what = kind === 'FILE' ? 'file' : 'medium';
  return {
    add: async (req) => {
      const estate_id = kit.estateIdOf(req);
      const upload = parse(UploadedFile, req.body);
      if (!(await kit.blobs.head(upload.blob_key))) throw new DomainError(400, ['the uploaded file is not in the blob store']);
      const file_id = newId(req, 'file');
      await kit.write(req, estate_id, { type: 'AddFile', estate_id, file_id, kind, upload });
      const file = (await kit.currentView(estate_id)).view[list].find((f) => f.id === file_id);
      if (!file) throw new Error('file not projected');
      return renderFile(file);
    },
    remove: async (req) => {
      const estate_id = kit.estateIdOf(req);
      const file_id = idParam(req, 'file_id', what);
      const before = await kit.reads.get<EstateDetailDoc>(C.detail, estate_id);
      // The bytes go with the file (its download links answer 404 from the reply on): the file-bytes
      // process manager deletes them from the stored event, and the write's settle waits for it.
      await kit.write(req, estate_id, { type: 'RemoveFile', estate_id, file_id, kind });
      const file = before?.view?.[list].find((f) => f.id === file_id);
      return file ? renderFile(file, false) : {};
    },
  };
}
