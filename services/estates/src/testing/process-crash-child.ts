/**
 * Child of process-crash.int.spec.ts: runs the estates service on SQLite files, drives the workflows
 * that span streams (moving an external_id, deleting an estate with a file) and SIGKILLs itself at
 * the step named in argv, so the parent can restart on the same files and check they complete.
 *
 * argv: events.db reads.db blobs-dir step
 */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import {
  createMemoryBus,
  openFsBlobStore,
  openSqliteEventStore,
  openSqliteReadStore,
  type BlobStore,
  type EventStore,
} from '@renopath/platform';
import { EstatesSubjects as S, type Estate, type ServiceRequest } from '@renopath/contracts';
import { DIRECTORY_CONSUMER } from '../directory/directory.reactor.ts';
import { startEstates } from '../estates.service.ts';
import { ORG, OWNER, type Step } from './process-crash.steps.ts';

const [eventsFile, readsFile, blobsDir, step] = process.argv.slice(2) as [string, string, string, Step];
const die = (): never => {
  process.stdout.write(`killed ${step}\n`);
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
};
let armed = false;

const sqliteEvents = openSqliteEventStore({ file: eventsFile });
// The kill points: right after the store acknowledged the step's write, before anything that follows it.
const eventStore: EventStore = Object.assign(Object.create(sqliteEvents), {
  append: async (...args: Parameters<EventStore['append']>) => {
    const result = await sqliteEvents.append(...args);
    const types = args[1].map((e) => e.type);
    if (armed && step === 'update-appended' && types.includes('EstateUpdated')) die();
    if (armed && step === 'release-appended' && types.includes('ExternalIdReleased')) die();
    if (armed && step === 'delete-appended' && types.includes('EstateDeleted')) die();
    return result;
  },
});
const fsBlobs = await openFsBlobStore({ root: blobsDir });
const blobs: BlobStore = Object.assign(Object.create(fsBlobs), {
  delete: async (key: string) => {
    await fsBlobs.delete(key);
    if (armed && step === 'bytes-deleted') die();
  },
});
const readStore = openSqliteReadStore({ file: readsFile });
const bus = createMemoryBus();
const service = await startEstates({
  bus,
  eventStore,
  readStore,
  blobs,
  log: pino({ level: 'silent' }),
  config: { publicUrl: 'http://x', settleTimeoutMs: 10_000 },
});

// Identity's word that OWNER owns ORG, as estates learns it: an event.
await bus.publish('evt.identity.OrganizationMemberAdded', {
  context: 'identity',
  event_id: randomUUID(),
  type: 'OrganizationMemberAdded',
  stream: `organization-${ORG}`,
  revision: 0,
  position: 1,
  occurred_at: new Date().toISOString(),
  data: { organization_id: ORG, user_id: OWNER, member_type: 'OWNER' },
  metadata: { actor: { user_id: null, client_id: null }, correlation_id: randomUUID(), causation_id: null },
});
while (!(await bus.isCaughtUp(DIRECTORY_CONSUMER))) await new Promise((resolve) => setTimeout(resolve, 5));

const request = (body: unknown, params: Record<string, string> = {}): ServiceRequest => ({
  actor: { user_id: OWNER, organization_id: ORG, client_id: 'c', scopes: [] },
  correlation_id: randomUUID(),
  params,
  query: {},
  body,
});
const estate = await bus.request<Estate>(
  S.createEstate,
  request({ external_id: 'crm-first', address: { zip_code: '9000', country: 'BE' } }),
);
const blob_key = `uploads/${randomUUID()}`;
await blobs.put(blob_key, Buffer.from('%PDF-1.4 crash'), 'application/pdf');
await bus.request(S.addFile, request({ blob_key, name: 'plan.pdf', mimetype: 'application/pdf', size: 14 }, { estate_id: estate.id }));
process.stdout.write(`setup ${estate.id} ${blob_key}\n`);

armed = true;
await bus.request(S.updateEstate, request({ external_id: 'crm-moved' }, { estate_id: estate.id }));
await bus.request(S.deleteEstate, request({}, { estate_id: estate.id }));
process.stdout.write('done\n');
await service.close();
