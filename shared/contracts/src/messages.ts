import { z } from 'zod';
import {
  CalculationJobListQuery,
  CalculationsSubjects,
  ChildDocumentJobBody,
  ClaimJobBody,
  CompleteJobCommand,
  IndicationQuery,
  IndicationRequest,
  RenewLeaseBody,
  TrajectoryJobEstate,
} from './calculations.ts';
import { formatIssues } from './errors.ts';
import { CreatePortfolioRunBody, PortfolioResultsPageQuery, PortfolioRunListQuery, PortfolioSubjects } from './portfolio.ts';
import { UUID_PATTERN } from './ids.ts';
import {
  AddEstateMemberBody,
  CreateDescribedEstateBody,
  CreateEstateBody,
  CreateFloorBody,
  CreateRoofBody,
  CreateRoomBody,
  CreateStaircaseBody,
  EstateListQuery,
  EstatesSubjects,
  GetEstateQuery,
  UpdateEstateBody,
  UpdateFloorBody,
  UpdateRoofBody,
  UpdateRoomBody,
  UpdateStaircaseBody,
  UploadedFile,
} from './estates.ts';
import {
  AcceptInvitationBody,
  Actor,
  AddOrganizationMemberBody,
  AdminCreateApiClientBody,
  AdminCreateOrganizationBody,
  AttachClientMemberBody,
  ConfirmEmailChangeBody,
  OutboxQuery,
  SignDocumentBody,
  SignWebhookBody,
  TokenRequestBody,
  UpdateOrganizationBody,
  UpdateUserBody,
} from './identity.ts';
import {
  CreateRenovationBody,
  CreateRenovationFromTrajectoryBody,
  CreateReportBody,
  RenovationItemBody,
  RenovationOverviewQuery,
  RenovationSearchQuery,
  RenovationsSubjects,
  UpdateRenovationItemBody,
} from './renovations.ts';
import { ReferralPageQuery, ReportingSubjects } from './reporting.ts';
import {
  CreatePassportBody,
  PassportPdfQuery,
  PassportSubjects,
  PassportVerificationQuery,
  SignPassportBody,
  UpdatePassportBody,
} from './passport.ts';
import { IdentitySubjects, type ServiceRequest } from './service.ts';
import { TrajectoryRequest } from './trajectory-request.ts';

/**
 * The message contracts of the commands and queries (issue 9): for each `cmd.*` / `qry.*` subject, what
 * its service receives. The gateway maps an HTTP request to it and validates it with these schemas
 * (its route's `body` and `query` are these very schemas), and the service's bus handler parses what
 * arrives with the same contract (`serveMessages` in the platform's handler kit), whoever sent it.
 *
 * A message is a ServiceRequest: the caller (`actor`), `correlation_id`, an optional `idempotency_key`,
 * and the inputs `params` (path ids), `query` and `body`.
 */
export interface MessageContract {
  /** Path parameters that are UUIDs: any other value names nothing (404 `<noun> not found`). */
  ids: readonly string[];
  /** UUID path parameters some callers give (a renovation item's scope: roof, room or staircase). */
  optionalIds: readonly string[];
  /** Other path parameters: non-empty strings (a client id, a referral token). */
  params: readonly string[];
  query?: z.ZodType;
  body?: z.ZodType;
  /** The status of a body that does not match (default 400; job creation answers 406, docs/http-contract.md "Trajectory jobs"). */
  invalidBodyStatus: 400 | 406;
  /** The whole message as one schema (documentation, tests); services parse with `parseMessage`. */
  schema: z.ZodType<ServiceRequest>;
}

/** A body-less command that still accepts `{}` (a job's stop). */
export const EmptyBody = z.strictObject({});

/** The caller and the request's ids: what every message carries besides its inputs. */
export const MessageEnvelope = z.object({
  /** null (or absent) only on the token endpoint, the public pages and the operator admin API. */
  actor: Actor.nullable().optional(),
  correlation_id: z.string().optional(),
  idempotency_key: z.string().min(1).optional(),
});

interface MessageParts {
  ids?: readonly string[];
  optionalIds?: readonly string[];
  params?: readonly string[];
  query?: z.ZodType;
  body?: z.ZodType;
  invalidBodyStatus?: 400 | 406;
}

/** One message contract. */
export function message(parts: MessageParts = {}): MessageContract {
  const ids = parts.ids ?? [];
  const optionalIds = parts.optionalIds ?? [];
  const params = parts.params ?? [];
  const uuid = z.string().regex(UUID_PATTERN);
  const schema = MessageEnvelope.extend({
    params: z.object({
      ...Object.fromEntries(ids.map((id) => [id, uuid])),
      ...Object.fromEntries(optionalIds.map((id) => [id, uuid.optional()])),
      ...Object.fromEntries(params.map((name) => [name, z.string().min(1)])),
    }),
    query: parts.query ?? z.object({}),
    body: parts.body ?? z.undefined(),
  }) as unknown as z.ZodType<ServiceRequest>;
  return {
    ids,
    optionalIds,
    params,
    ...(parts.query ? { query: parts.query } : {}),
    ...(parts.body ? { body: parts.body } : {}),
    invalidBodyStatus: parts.invalidBodyStatus ?? 400,
    schema,
  };
}

/** `estate_id` -> `estate not found`: the words the gateway answers an unknown id with. */
export const notFoundMessage = (id: string) => `${id.replace(/_id$/, '').replace(/_/g, ' ')} not found`;

export type MessageCheck = { ok: true; value: ServiceRequest } | { ok: false; status: 400 | 404 | 406; message: string[] };

/**
 * A message checked against its contract, in the order the gateway answers in: an id that is not a
 * UUID names nothing (404), then the query (400) and the body (400, or the contract's status). The
 * result carries the parsed query and body (defaults applied); a part the contract has not is
 * dropped (no query: `{}`, no body: undefined), so a handler never reads what nobody validated.
 */
export function checkMessage(contract: MessageContract, payload: unknown): MessageCheck {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    return { ok: false, status: 400, message: ['message must be an object'] };
  const raw = payload as Partial<ServiceRequest> & Record<string, unknown>;
  // An actor object already checked (the gateway hands the same one per verified token in one process) is not parsed again.
  const known = typeof raw.actor === 'object' && raw.actor !== null && checkedActors.has(raw.actor);
  const envelope = knownEnvelope(raw, known) ?? checkedEnvelope(raw, known);
  if (!envelope.success) return { ok: false, status: 400, message: formatIssues(envelope.error.issues, 'message') };
  const given = (typeof raw.params === 'object' && raw.params !== null ? raw.params : {}) as Record<string, unknown>;
  const params: Record<string, string> = {};
  for (const id of contract.ids) {
    const value = given[id];
    if (typeof value !== 'string' || !UUID_PATTERN.test(value)) return { ok: false, status: 404, message: [notFoundMessage(id)] };
    params[id] = value;
  }
  for (const id of contract.optionalIds) {
    const value = given[id];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !UUID_PATTERN.test(value)) return { ok: false, status: 404, message: [notFoundMessage(id)] };
    params[id] = value;
  }
  for (const name of contract.params) {
    const value = given[name];
    if (typeof value !== 'string' || value === '') return { ok: false, status: 404, message: [notFoundMessage(name)] };
    params[name] = value;
  }
  let query: Record<string, unknown> = {};
  if (contract.query) {
    const parsed = parseEmptyFast(contract.query, raw.query ?? {});
    if (!parsed.success) return { ok: false, status: 400, message: formatIssues(parsed.error.issues, 'query') };
    query = parsed.data as Record<string, unknown>;
  }
  let body: unknown;
  if (contract.body) {
    const parsed = contract.body.safeParse(raw.body ?? {}, { reportInput: true });
    if (!parsed.success) return { ok: false, status: contract.invalidBodyStatus, message: formatIssues(parsed.error.issues, 'body') };
    body = parsed.data;
  }
  const { actor = null, correlation_id = '', idempotency_key } = envelope.data;
  return { ok: true, value: { actor, correlation_id, ...(idempotency_key !== undefined ? { idempotency_key } : {}), params, query, body } };
}

/**
 * Actors that passed `Actor` (zod returns a copy, so the set holds the caller's object). Nobody mutates
 * an actor after the gateway made it; a frozen copy would cost what this saves.
 */
const checkedActors = new WeakSet<object>();

type Envelope = z.infer<typeof MessageEnvelope>;

/**
 * The envelope of the usual message, without zod: an actor already checked, a correlation id and an
 * idempotency key that are absent or the strings `MessageEnvelope` takes. Every gateway request
 * passes here, and its zod parse was a measurable share of a cached read; anything else (null if so)
 * goes to the schema, which words the refusal.
 */
function knownEnvelope(raw: Record<string, unknown>, known: boolean): { success: true; data: Envelope } | null {
  const { correlation_id, idempotency_key } = raw;
  if (!known || (correlation_id !== undefined && typeof correlation_id !== 'string')) return null;
  if (idempotency_key !== undefined && (typeof idempotency_key !== 'string' || idempotency_key === '')) return null;
  return { success: true, data: { actor: raw['actor'] as Envelope['actor'], correlation_id, idempotency_key } };
}

/** The envelope parsed with `MessageEnvelope`; an actor it accepts is remembered as checked. */
function checkedEnvelope(raw: Record<string, unknown>, known: boolean) {
  const envelope = MessageEnvelope.safeParse({
    actor: known ? null : raw['actor'],
    correlation_id: raw['correlation_id'],
    idempotency_key: raw['idempotency_key'],
  });
  if (!envelope.success) return envelope;
  if (known) envelope.data.actor = raw['actor'] as Envelope['actor'];
  else if (envelope.data.actor) checkedActors.add(raw['actor'] as object);
  return envelope;
}

/** Most reads carry no query: when a schema turns `{}` into `{}`, an empty query skips the parse. */
const emptyIsEmpty = new WeakMap<z.ZodType, boolean>();
function parseEmptyFast(schema: z.ZodType, value: unknown) {
  if (isEmptyObject(value)) {
    let empty = emptyIsEmpty.get(schema);
    if (empty === undefined) {
      const none = schema.safeParse({});
      empty = none.success && isEmptyObject(none.data);
      emptyIsEmpty.set(schema, empty);
    }
    if (empty) return { success: true as const, data: {} };
  }
  return schema.safeParse(value, { reportInput: true });
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const _ in value) return false;
  return true;
}

const I = IdentitySubjects;
const E = EstatesSubjects;
const R = RenovationsSubjects;
const C = CalculationsSubjects;
const P = ReportingSubjects;
const PP = PassportSubjects;
const PF = PortfolioSubjects;
const SCOPE_IDS = ['roof_id', 'room_id', 'staircase_id'] as const;

/**
 * Every command and query subject with its contract. A few internal subjects whose bodies are their
 * context's own business (a worker's claim, a webhook signature) have theirs in that context.
 */
export const Messages: Readonly<Record<string, MessageContract>> = {
  // identity
  [I.jwks]: message(),
  [I.me]: message(),
  [I.updateUser]: message({ ids: ['user_id'], body: UpdateUserBody }),
  [I.organizations]: message(),
  [I.updateOrganization]: message({ ids: ['organization_id'], body: UpdateOrganizationBody }),
  [I.organizationMembers]: message({ ids: ['organization_id'] }),
  [I.addOrganizationMember]: message({ ids: ['organization_id'], body: AddOrganizationMemberBody }),
  [I.acceptInvitation]: message({ body: AcceptInvitationBody }),
  [I.confirmEmailChange]: message({ body: ConfirmEmailChangeBody }),
  [I.removeOrganizationMember]: message({ ids: ['organization_id', 'member_id'] }),
  [I.adminCreateOrganization]: message({ body: AdminCreateOrganizationBody }),
  [I.adminCreateApiClient]: message({ body: AdminCreateApiClientBody }),
  [I.adminRevokeApiClient]: message({ params: ['client_id'] }),
  [I.adminRotateWebhookSecret]: message({ params: ['client_id'] }),
  [I.adminOutbox]: message({ query: OutboxQuery }),
  [I.issueToken]: message({ body: TokenRequestBody }),
  [I.revokedClients]: message(),
  [I.attachClientMember]: message({ body: AttachClientMemberBody }),
  [I.signWebhook]: message({ body: SignWebhookBody }),
  [I.signDocument]: message({ body: SignDocumentBody }),
  [I.publishedKeys]: message(),
  [I.documentKeys]: message(),

  // estates
  [E.createEstate]: message({ body: CreateEstateBody }),
  [E.listEstates]: message(),
  [E.getEstate]: message({ ids: ['estate_id'], query: GetEstateQuery }),
  [E.updateEstate]: message({ ids: ['estate_id'], body: UpdateEstateBody }),
  [E.deleteEstate]: message({ ids: ['estate_id'] }),
  [E.estateList]: message({ query: EstateListQuery }),
  [E.history]: message({ ids: ['estate_id'] }),
  [E.addFile]: message({ ids: ['estate_id'], body: UploadedFile }),
  [E.removeFile]: message({ ids: ['estate_id', 'file_id'] }),
  [E.addMedia]: message({ ids: ['estate_id'], body: UploadedFile }),
  [E.removeMedia]: message({ ids: ['estate_id', 'file_id'] }),
  [E.listRoofs]: message({ ids: ['estate_id'] }),
  [E.addRoof]: message({ ids: ['estate_id'], body: CreateRoofBody }),
  [E.getRoof]: message({ ids: ['estate_id', 'roof_id'] }),
  [E.updateRoof]: message({ ids: ['estate_id', 'roof_id'], body: UpdateRoofBody }),
  [E.removeRoof]: message({ ids: ['estate_id', 'roof_id'] }),
  [E.listFloors]: message({ ids: ['estate_id'] }),
  [E.addFloor]: message({ ids: ['estate_id'], body: CreateFloorBody }),
  [E.getFloor]: message({ ids: ['estate_id', 'floor_id'] }),
  [E.updateFloor]: message({ ids: ['estate_id', 'floor_id'], body: UpdateFloorBody }),
  [E.removeFloor]: message({ ids: ['estate_id', 'floor_id'] }),
  [E.listRooms]: message({ ids: ['estate_id', 'floor_id'] }),
  [E.addRoom]: message({ ids: ['estate_id', 'floor_id'], body: CreateRoomBody }),
  [E.getRoom]: message({ ids: ['estate_id', 'floor_id', 'room_id'] }),
  [E.updateRoom]: message({ ids: ['estate_id', 'floor_id', 'room_id'], body: UpdateRoomBody }),
  [E.removeRoom]: message({ ids: ['estate_id', 'floor_id', 'room_id'] }),
  [E.listStaircases]: message({ ids: ['estate_id', 'floor_id'] }),
  [E.addStaircase]: message({ ids: ['estate_id', 'floor_id'], body: CreateStaircaseBody }),
  [E.getStaircase]: message({ ids: ['estate_id', 'floor_id', 'staircase_id'] }),
  [E.updateStaircase]: message({ ids: ['estate_id', 'floor_id', 'staircase_id'], body: UpdateStaircaseBody }),
  [E.removeStaircase]: message({ ids: ['estate_id', 'floor_id', 'staircase_id'] }),
  [E.listMembers]: message({ ids: ['estate_id'] }),
  [E.addMember]: message({ ids: ['estate_id'], body: AddEstateMemberBody }),
  [E.removeMember]: message({ ids: ['estate_id', 'member_id'] }),
  [E.describeEstateForJob]: message({ body: CreateDescribedEstateBody }),

  // renovations: one set of item subjects serves the four scopes (general, roof, room, staircase)
  [R.createRenovation]: message({ body: CreateRenovationBody }),
  [R.createFromTrajectory]: message({ body: CreateRenovationFromTrajectoryBody }),
  [R.listRenovations]: message(),
  [R.search]: message({ query: RenovationSearchQuery }),
  [R.getRenovation]: message({ ids: ['renovation_id'] }),
  [R.deleteRenovation]: message({ ids: ['renovation_id'] }),
  [R.overview]: message({ ids: ['renovation_id'], query: RenovationOverviewQuery }),
  [R.overviewV1]: message({ ids: ['renovation_id'], query: RenovationOverviewQuery }),
  [R.governmentGrants]: message({ ids: ['renovation_id'] }),
  [R.history]: message({ ids: ['renovation_id'] }),
  [R.addItem]: message({ ids: ['renovation_id'], optionalIds: SCOPE_IDS, body: RenovationItemBody }),
  [R.listItems]: message({ ids: ['renovation_id'], optionalIds: SCOPE_IDS }),
  [R.getItem]: message({ ids: ['renovation_id', 'item_id'], optionalIds: SCOPE_IDS }),
  [R.updateItem]: message({ ids: ['renovation_id', 'item_id'], optionalIds: SCOPE_IDS, body: UpdateRenovationItemBody }),
  [R.removeItem]: message({ ids: ['renovation_id', 'item_id'], optionalIds: SCOPE_IDS }),
  [R.availableItems]: message({ ids: ['renovation_id'], optionalIds: SCOPE_IDS }),

  // calculations
  [C.createTrajectoryJob]: message({ body: TrajectoryRequest, query: TrajectoryJobEstate, invalidBodyStatus: 406 }),
  [C.listJobs]: message({ query: CalculationJobListQuery }),
  [C.getJob]: message({ ids: ['calculation_job_id'] }),
  [C.stopJob]: message({ ids: ['calculation_job_id'], body: EmptyBody }),
  [C.webhookDeliveries]: message({ ids: ['calculation_job_id'] }),
  [C.createIndication]: message({ query: IndicationQuery, body: IndicationRequest }),
  [C.listIndications]: message(),
  [C.getIndication]: message({ ids: ['calculation_id'] }),
  [C.completeJob]: message({ body: CompleteJobCommand }),
  [C.claimJob]: message({ body: ClaimJobBody }),
  [C.childDocumentJob]: message({ body: ChildDocumentJobBody }),
  [C.renewLease]: message({ body: RenewLeaseBody }),
  [PF.createRun]: message({ body: CreatePortfolioRunBody }),
  [PF.getRun]: message({ ids: ['portfolio_run_id'] }),
  [PF.listRuns]: message({ query: PortfolioRunListQuery }),
  [PF.stopRun]: message({ ids: ['portfolio_run_id'], body: EmptyBody }),
  [PF.summary]: message({ ids: ['portfolio_run_id'] }),
  [PF.resultsPage]: message({ ids: ['portfolio_run_id'], query: PortfolioResultsPageQuery }),

  // reporting
  [P.createReport]: message({ ids: ['renovation_id'], body: CreateReportBody }),
  [P.listReports]: message({ ids: ['renovation_id'] }),
  [P.oldStyleReport]: message({ ids: ['renovation_id'] }),
  [P.referral]: message({ params: ['token'], query: ReferralPageQuery }),
  [PP.create]: message({ body: CreatePassportBody }),
  [PP.get]: message({ ids: ['passport_id'] }),
  [PP.listForEstate]: message({ ids: ['estate_id'] }),
  [PP.update]: message({ ids: ['passport_id'], body: UpdatePassportBody }),
  [PP.sign]: message({ ids: ['passport_id'], body: SignPassportBody }),
  [PP.pdf]: message({ ids: ['passport_id'], query: PassportPdfQuery }),
  [PP.verification]: message({ ids: ['passport_id'], query: PassportVerificationQuery }),
};
