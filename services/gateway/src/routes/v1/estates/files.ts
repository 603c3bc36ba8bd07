import { EstateFile, EstatesSubjects as S, FILE_MEDIA_TYPES, MEDIA_MEDIA_TYPES } from '@renopath/contracts';
import type { RouteDef } from '../../route.ts';
import { base, E } from './index.ts';

const upload = (path: string, subject: string, noun: string, accept: readonly string[], operationId: string): RouteDef => ({
  ...base,
  method: 'POST',
  path,
  subject,
  operationId,
  ids: ['estate_id'],
  kind: 'upload',
  accept,
  signLinks: true,
  status: 201,
  reply: EstateFile,
  summary: `Upload a ${noun} (multipart/form-data: part file, optional part name; at most 25 MiB; ${accept.join(', ')})`,
  errors: [400, 401, 403, 404, 413, 415],
});

/** An estate's files and media: uploaded as multipart, answered with signed download links. */
export const estateFileRoutes: RouteDef[] = [
  upload(`${E}/files`, S.addFile, 'file', FILE_MEDIA_TYPES, 'uploadEstateFile'),
  {
    ...base,
    method: 'DELETE',
    path: `${E}/files/{file_id}`,
    subject: S.removeFile,
    operationId: 'deleteEstateFile',
    ids: ['estate_id', 'file_id'],
    status: 200,
    reply: EstateFile,
    summary: 'Delete a file; its download links answer 404 from then on',
    errors: [401, 403, 404],
  },
  upload(`${E}/media`, S.addMedia, 'medium', MEDIA_MEDIA_TYPES, 'uploadEstateMedium'),
  {
    ...base,
    method: 'DELETE',
    path: `${E}/media/{file_id}`,
    subject: S.removeMedia,
    operationId: 'deleteEstateMedium',
    ids: ['estate_id', 'file_id'],
    status: 200,
    reply: EstateFile,
    summary: 'Delete a medium; its download links answer 404 from then on',
    errors: [401, 403, 404],
  },
];
