/**
 * Child of workflow-crash.int.spec.ts: runs the renovations service on SQLite files, feeds it the
 * estates events of `estatesLog()` over the bus, builds two renovations with a roof item on the
 * estate, then drives the two workflows that span renovation streams (a roof edit revalues both, the
 * estate's deletion deletes both) and SIGKILLs itself at the step named in argv, so the parent can
 * restart on the same files and check the workflow completes.
 *
 * argv: events.db reads.db step
 */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import {
  createMemoryBus,
  openSqliteEventStore,
  openSqliteReadStore,
  type EventStore,
  type ReadStore,
  type ReadStoreTx,
} from '@renopath/platform';
import { RenovationsSubjects as S, type ServiceRequest } from '@renopath/contracts';
import { IDENTITY_CONSUMER } from '../src/directory-mirror/directory-mirror.reactor.ts';
import { ESTATES_CONSUMER, M } from '../src/estate-mirror/estate-mirror.reactor.ts';
import { RENOVATION_STREAM_PREFIX } from '../src/renovation/renovation.decider.ts';
import { startRenovations } from '../src/renovations.service.ts';
import { ESTATE_ID, estatesLog, ORG, OWNER, ownerAdded, ROOF_ID, ROOF_ITEM, workflowOf, type Step } from './workflow-crash.steps.ts';

const [eventsFile, readsFile, step] = process.argv.slice(2) as [string, string, Step];
const die = (): never => {
  process.stdout.write(`killed ${step}\n`);
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
};
/** The workflow under way (null during the set-up) and how many renovation streams it has written. */
let phase: 'reconcile' | 'delete' | null = null;
let written = 0;

const sqliteEvents = openSqliteEventStore({ file: eventsFile });
// The kill points: right after the store acknowledged a write of the workflow, before anything that follows it.
const eventStore: EventStore = Object.assign(Object.create(sqliteEvents), {
  append: async (...args: Parameters<EventStore['append']>) => {
    const result = await sqliteEvents.append(...args);
    if (phase && workflowOf(step) === phase && args[0].startsWith(RENOVATION_STREAM_PREFIX)) {
      written++;
      if ((step.endsWith('-first') && written === 1) || (step.endsWith('-all') && written === 2)) die();
    }
    return result;
  },
});
const sqliteReads = openSqliteReadStore({ file: readsFile });
const readStore: ReadStore = Object.assign(Object.create(sqliteReads), {
  transaction: async <R>(fn: (tx: ReadStoreTx) => Promise<R>): Promise<R> => {
    let mirrored = false;
    const result = await sqliteReads.transaction((tx) =>
      fn(
        Object.assign(Object.create(tx), {
          put: async <T extends object>(collection: string, id: string, doc: T) => {
            if (collection === M.estates) mirrored = true;
            return tx.put(collection, id, doc);
          },
        }) as ReadStoreTx,
      ),
    );
    // Committed: this context's copy of the estate has the workflow's event, no renovation has it yet.
    if (mirrored && phase && workflowOf(step) === phase && step.endsWith('-mirrored')) die();
    return result;
  },
});

const bus = createMemoryBus();
const service = await startRenovations({ bus, eventStore, readStore, log: pino({ level: 'silent' }), config: { settleTimeoutMs: 10_000 } });
const caughtUp = async (consumer: string) => {
  while (!(await bus.isCaughtUp(consumer))) await new Promise((resolve) => setTimeout(resolve, 5));
};
const log = estatesLog();
const publish = (n: number) => bus.publish(`evt.estates.${log[n]!.type}`, log[n]!);

await bus.publish(`evt.identity.${ownerAdded.type}`, ownerAdded);
await caughtUp(IDENTITY_CONSUMER);
await publish(0);
await publish(1);
await caughtUp(ESTATES_CONSUMER);

const request = (body: unknown, params: Record<string, string> = {}): ServiceRequest => ({
  actor: { user_id: OWNER, organization_id: ORG, client_id: 'crash', scopes: [] },
  correlation_id: randomUUID(),
  params,
  query: {},
  body,
});
const renovations: string[] = [];
for (let i = 0; i < 2; i++) {
  const { id } = await bus.request<{ id: string }>(S.createRenovation, request({ estate_id: ESTATE_ID }));
  await bus.request(S.addItem, request({ renovation_component_type: ROOF_ITEM, count: 1 }, { renovation_id: id, roof_id: ROOF_ID }));
  renovations.push(id);
}
process.stdout.write(`setup ${renovations.join(' ')}\n`);

phase = 'reconcile';
await publish(2);
await caughtUp(ESTATES_CONSUMER);
phase = 'delete';
written = 0;
await publish(3);
await caughtUp(ESTATES_CONSUMER);
process.stdout.write('done\n');
await service.close();
await bus.close();
