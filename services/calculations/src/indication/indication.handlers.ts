import { traceFields } from '@renopath/platform/observability/tracing.ts';
import type { Logger } from 'pino';
import { DomainError, type EventStore, type ReadStore } from '@renopath/platform';
import { handleCommand, type Decider, type DomainEvent } from '@renopath/platform/service/decider.ts';
import { runProjection } from '@renopath/platform/projection-runner.ts';
import { INDICATION_STREAM_PREFIX, I, type IndicationDoc } from '../indication-views/indication-views.projection.ts';
import { INDICATION_VIEWS } from '../projections.ts';
import { actorOf, commandContext, newId, parse, readYourWrites } from '@renopath/platform/service/handler-kit.ts';
import {
  CalculationsSubjects as S,
  IndicationQuery,
  type IndicationRecord,
  IndicationRequest,
  type Actor,
  type ServiceRequest,
} from '@renopath/contracts';
import { evaluate, propertyFromIndication } from '@renopath/energy';
import data from '../../data/indication.json' with { type: 'json' };

/**
 * The synchronous energy-efficiency indication (docs/http-contract.md): answered at once from the energy model,
 * and recorded as an event (stream `indication-<id>`) so `GET /calculations` lists it later.
 */

type Recorded = DomainEvent<'IndicationCalculated', Record<string, unknown>>;
type Record_ = { type: 'RecordIndication'; data: Record<string, unknown> };
/** Written once: a keyed retry of the same request finds the record it made. */
const indicationDecider: Decider<Record_, Recorded, boolean> = {
  initialState: () => false,
  decide: (command, exists) => (exists ? [] : [{ type: 'IndicationCalculated', data: command.data }]),
  evolve: () => true,
};

/**
 * Records are the organization's: its owners and employees see them all, anyone else (a CLIENT with
 * an API client) only their own.
 */
export function startIndications(deps: {
  eventStore: EventStore;
  readStore: ReadStore;
  log: Logger;
  now: () => Date;
  settleTimeoutMs: number;
  isWriter: (actor: Actor) => Promise<boolean>;
}) {
  const { eventStore: store, readStore: reads, log, now } = deps;
  const projection = runProjection({
    ...INDICATION_VIEWS,
    eventStore: store,
    readStore: reads,
    onError: (err, event) => log.error({ err, event_id: event?.event_id }, 'indication views projection failed; retrying'),
  });
  const settle = readYourWrites(projection, deps.settleTimeoutMs);

  const handlers = {
    async [S.createIndication](req: ServiceRequest) {
      const actor = actorOf(req);
      parse(IndicationQuery, req.query ?? {});
      const request = parse(IndicationRequest, req.body ?? {});
      const id = newId(req, 'indication');
      let record: IndicationRecord;
      try {
        const result = evaluate(propertyFromIndication(request));
        record = {
          id,
          calculation_status: 'FINISHED',
          calculation_type: 'ENERGY_EFFICIENCY',
          metadata: {
            epc_score: Math.round(result.epc_score * 10) / 10,
            epc_label: result.epc_label,
            energy_efficiency_type: result.energy_efficiency_type,
            region: result.region,
            confidence_score: Math.round(result.confidence_score * 100) / 100,
            disclaimer: data.disclaimer.en,
          },
        };
      } catch (err) {
        // The model refuses what it cannot describe (an out-of-range home): a FAILED record, not a 500.
        log.info({ err, ...traceFields(req) }, 'indication not computed');
        record = {
          id,
          calculation_status: 'FAILED',
          calculation_type: 'ENERGY_EFFICIENCY',
          metadata: {
            epc_score: null,
            epc_label: null,
            energy_efficiency_type: null,
            region: null,
            confidence_score: null,
            disclaimer: data.disclaimer.en,
          },
        };
      }
      const result = await handleCommand(
        store,
        `${INDICATION_STREAM_PREFIX}${id}`,
        indicationDecider,
        {
          type: 'RecordIndication',
          data: { actor: { user_id: actor.user_id, organization_id: actor.organization_id, client_id: actor.client_id }, request, record },
        },
        commandContext(req, now()),
      );
      await settle(result.position);
      return (await reads.get<IndicationDoc>(I.indications, id))?.record ?? record;
    },

    async [S.listIndications](req: ServiceRequest) {
      const actor = actorOf(req);
      const mine: Record<string, string> = (await deps.isWriter(actor)) ? {} : { user_id: actor.user_id };
      const { items } = await reads.query<IndicationDoc>(I.indications, {
        filter: { organization_id: actor.organization_id, ...mine },
        sort: [{ field: 'position', order: 'DESC' }],
      });
      return items.map((d) => d.record);
    },

    async [S.getIndication](req: ServiceRequest) {
      const actor = actorOf(req);
      const id = String(req.params?.['calculation_id'] ?? '').toLowerCase();
      const doc = await reads.get<IndicationDoc>(I.indications, id);
      if (!doc || doc.organization_id !== actor.organization_id || (doc.user_id !== actor.user_id && !(await deps.isWriter(actor)))) {
        throw new DomainError(404, ['calculation not found']);
      }
      return doc.record;
    },
  };
  return { handlers, projection, close: () => projection.close() };
}
