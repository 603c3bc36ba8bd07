import { randomUUID } from 'node:crypto';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { DomainError } from '@renopath/platform';
import { fold, handleCommand } from '@renopath/platform/service/decider.ts';
import { actorOf, commandContext, idParam, newId, parse } from '@renopath/platform/service/handler-kit.ts';
import {
  CalculationsSubjects,
  CreatePassportBody,
  IdentitySubjects,
  PassportPdfQuery,
  PassportSignaturePayload,
  SignPassportBody,
  UpdatePassportBody,
  type CalculationJob,
  type Jwks,
  type PassportEvent,
  type RenovationPassport,
  type ServiceRequest,
} from '@renopath/contracts';
import { isReportLanguage } from '../i18n/index.ts';
import type { EstateReply, Handler, ReportingKit } from '../kit/reporting-kit.ts';
import { PASSPORT_COLLECTIONS as C, type PassportDoc } from '../passport-views/passport-views.projection.ts';
import type { ReportLanguage } from '../report-model.ts';
import { contentSha256 } from './canonical-json.ts';
import { prefillContent } from './content.ts';
import { passportDecider, passportStream, type PassportCommand } from './passport.decider.ts';
import { renderPassportPdf } from './passport-pdf.ts';

/** The JWS `typ` of a passport signature: never taken for an access token (whose `typ` is JWT). */
export const PASSPORT_JWS_TYPE = 'renovation-passport+jws';
const TRAJECTORY = 'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION';
const NOT_FOUND = () => new DomainError(404, ['renovation passport not found']);

/** The public page of a passport, relative to the service's public address. */
export const verificationPath = (passport_id: string) => `/renovation-passports/${passport_id}/verification`;

/** What the public verification page shows: a summary, the hash, and whether hash and signature check out. */
export interface PassportVerification {
  language: ReportLanguage;
  id: string;
  version: number;
  signed_at: string;
  signed_by: { advisor_name: string; accreditation_number: string };
  address: RenovationPassport['content']['building']['address'];
  scale: string;
  epc_label: string;
  epc_label_after: string;
  target: RenovationPassport['content']['target'];
  steps: number;
  total_estimated_cost_incl_vat: number;
  site_visit_date: string | null;
  content_sha256: string;
  /** The content read now hashes to the signed hash. */
  hash_matches: boolean;
  /** The JWS verifies with a published document key and carries this passport's id and hash. */
  signature_verifies: boolean;
  key_id: string | null;
}

/** What the passport's handlers share: the context's kit and the public address its pages are under. */
interface Passports {
  kit: ReportingKit;
  publicUrl: string;
}

/**
 * The renovation passport's commands and queries: draft one from a finished trajectory job, complete
 * it (site visit, step edits), sign it with identity's document key, read it, print it, and the
 * public verification page's data.
 */
export function passportHandlers(
  kit: ReportingKit,
): Record<'create' | 'get' | 'list' | 'update' | 'sign' | 'pdf' | 'verification', Handler> {
  const ctx: Passports = { kit, publicUrl: kit.config.publicUrl ?? 'http://localhost:8080' };
  const { reads, now, estateOf } = kit;
  const named = (req: ServiceRequest) => visible(ctx, req, idParam(req, 'passport_id', 'renovation passport'));

  return {
    create: (req) => createPassport(ctx, req),

    get: async (req) => toResource(ctx, await named(req)),

    list: async (req) => {
      const actor = actorOf(req);
      const estate_id = idParam(req, 'estate_id', 'estate');
      await estateOf(req, estate_id);
      const { items } = await reads.query<PassportDoc>(C.passports, {
        filter: { estate_id, organization_id: actor.organization_id },
        sort: [{ field: 'version', order: 'ASC' }],
      });
      return items.map((doc) => toResource(ctx, doc));
    },

    update: async (req) => {
      const doc = await named(req);
      const patch = parse(UpdatePassportBody, req.body);
      return apply(ctx, req, doc.estate_id, doc.id, {
        type: 'AmendPassport',
        passport_id: doc.id,
        estate_id: doc.estate_id,
        updated_at: now().toISOString(),
        patch,
      });
    },

    sign: async (req) => signPassport(ctx, req, await named(req)),

    pdf: async (req) => passportPdf(ctx, req, await named(req)),

    /** Public (no token): only a signed passport has a page; a draft or an unknown id is 404. */
    verification: (req) => verificationOf(ctx, req),
  };
}

const toResource = ({ publicUrl }: Passports, doc: PassportDoc): RenovationPassport => ({
  id: doc.id,
  version: doc.version,
  status: doc.status,
  estate_id: doc.estate_id,
  calculation_job_id: doc.calculation_job_id,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
  signed_at: doc.signed_at,
  signed_by: doc.signed_by,
  content_sha256: doc.content_sha256,
  signature: doc.signature,
  verification_url: doc.status === 'SIGNED' ? `${publicUrl}${verificationPath(doc.id)}` : null,
  webhook_url: doc.webhook_url ?? null,
  content: doc.content,
});

/** A passport the caller may see: of their organization and of an estate they see (else 404, never revealing it exists). */
async function visible({ kit }: Passports, req: ServiceRequest, passport_id: string): Promise<PassportDoc> {
  const actor = actorOf(req);
  const doc = await kit.reads.get<PassportDoc>(C.passports, passport_id);
  if (!doc || doc.organization_id !== actor.organization_id) throw NOT_FOUND();
  await kit.estateOf(req, doc.estate_id).catch((err: unknown) => {
    throw err instanceof DomainError && err.status === 404 ? NOT_FOUND() : err;
  });
  return doc;
}

const stateOf = async ({ kit }: Passports, estate_id: string) =>
  fold(
    passportDecider,
    (await kit.store.readStream(passportStream(estate_id))).map((e) => ({ type: e.type, data: e.data }) as PassportEvent),
  );

/** A command on the estate's passports, then the passport as the read model has it once the command is applied. */
async function apply(ctx: Passports, req: ServiceRequest, estate_id: string, passport_id: string, command: PassportCommand) {
  const { store, reads, now, settle } = ctx.kit;
  const result = await handleCommand(store, passportStream(estate_id), passportDecider, command, commandContext(req, now()));
  if (result.position !== null) await settle(result.position);
  const doc = await reads.get<PassportDoc>(C.passports, passport_id);
  if (!doc) throw new Error(`passport ${passport_id} not projected`);
  return toResource(ctx, doc);
}

/** A draft from a FINISHED trajectory job of the caller's organization, its content prefilled from the job and the estate. */
async function createPassport(ctx: Passports, req: ServiceRequest) {
  const { ask, estateOf, now } = ctx.kit;
  const actor = actorOf(req);
  const { calculation_job_id, webhook_url } = parse(CreatePassportBody, req.body);
  // Asked as the caller: a job of another organization is unknown there (404).
  const job = await ask<CalculationJob>(req, CalculationsSubjects.getJob, { calculation_job_id });
  if (job.calculation_job_type !== TRAJECTORY || job.calculation_job_status !== 'FINISHED' || job.estate_id === null)
    throw new DomainError(422, ['calculation_job_id must name a FINISHED suggested-renovation-trajectory job']);
  const estate = await estateOf(req, job.estate_id);
  if (estate.organization_id !== actor.organization_id) throw new DomainError(404, ['calculation job not found']);
  const content = prefillContent(job.metadata as Record<string, unknown>, buildingFacts(estate));
  const passport_id = newId(req, 'renovation-passport');
  return apply(ctx, req, job.estate_id, passport_id, {
    type: 'DraftPassport',
    passport_id,
    estate_id: job.estate_id,
    organization_id: actor.organization_id,
    calculation_job_id,
    created_at: now().toISOString(),
    content,
    webhook_url: webhook_url ?? null,
    // The drafter's API client: its webhook secret signs the announcement, as a job's creator's does.
    client_id: actor.client_id,
  });
}

/** The estate's facts a passport's building section starts from (an absent one is null). */
function buildingFacts(estate: EstateReply): Parameters<typeof prefillContent>[1] {
  return {
    address: {
      street: estate.address.street ?? null,
      house_number: estate.address.house_number ?? null,
      house_number_extra: estate.address.house_number_extra ?? null,
      zip_code: estate.address.zip_code ?? null,
      place: estate.address.place ?? null,
      country: estate.address.country ?? null,
    },
    estate_type: estate.estate_type ?? null,
    estate_format: estate.estate_format ?? null,
    year_built: estate.year_built ?? null,
    habitable_space_m2: estate.habitable_space_m2 ?? null,
  };
}

/** The passport signed: the decider's refusals first, then its content's hash signed by identity's document key. */
async function signPassport(ctx: Passports, req: ServiceRequest, doc: PassportDoc) {
  const { bus, config, now } = ctx.kit;
  const signer = parse(SignPassportBody, req.body);
  const state = (await stateOf(ctx, doc.estate_id)).passports.get(doc.id);
  if (!state) throw NOT_FOUND();
  const signed_at = now().toISOString();
  const base = {
    type: 'SignPassport' as const,
    edition: state.edition,
    passport_id: doc.id,
    estate_id: doc.estate_id,
    signed_at,
    signed_by: signer,
    verification_url: `${ctx.publicUrl}${verificationPath(doc.id)}`,
  };
  // The decider's refusals (signed already: 409; no site visit: 422) before anything is signed.
  passportDecider.decide({ ...base, content_sha256: '', signature: '' }, { passports: new Map([[doc.id, state]]) });
  const content_sha256 = contentSha256(state.content);
  const payload: PassportSignaturePayload = {
    passport_id: doc.id,
    version: state.version,
    estate_id: doc.estate_id,
    content_sha256,
    signed_by: signer,
    signed_at,
  };
  const { jws } = await bus.request<{ jws: string }>(
    IdentitySubjects.signDocument,
    {
      actor: null,
      correlation_id: req.correlation_id,
      params: {},
      query: {},
      body: { payload, typ: PASSPORT_JWS_TYPE },
    } satisfies ServiceRequest,
    { timeoutMs: config.busTimeoutMs },
  );
  return apply(ctx, req, doc.estate_id, doc.id, { ...base, content_sha256, signature: jws });
}

/** The passport's PDF in a language, rendered once per content and kept in the blob store. */
async function passportPdf(ctx: Passports, req: ServiceRequest, doc: PassportDoc) {
  const { blobs, now } = ctx.kit;
  const query = parse(PassportPdfQuery, req.query ?? {});
  const language: ReportLanguage = query.language ?? (doc.content.building.address.country === 'NL' ? 'nl-NL' : 'nl-BE');
  // A signed passport never changes; a draft's file is named by its content, so an edit makes a new one.
  const blob_key = `passports/${doc.id}/${contentSha256(doc.content).slice(0, 16)}-${doc.status}-${language}.pdf`;
  if (!(await blobs.get(blob_key))) {
    const bytes = await renderPassportPdf({ passport: toResource(ctx, doc), language, generated_at: now().toISOString() });
    await blobs.put(blob_key, Buffer.from(bytes), 'application/pdf');
  }
  return { blob_key, name: `renovation-passport-v${doc.version}-${language}.pdf`, mimetype: 'application/pdf' };
}

/** The public verification page's data of a signed passport: its summary, and whether hash and signature check out. */
async function verificationOf(ctx: Passports, req: ServiceRequest): Promise<PassportVerification> {
  const passport_id = idParam(req, 'passport_id', 'renovation passport');
  const doc = await ctx.kit.reads.get<PassportDoc>(C.passports, passport_id);
  if (doc?.status !== 'SIGNED' || !doc.signature || !doc.content_sha256 || !doc.signed_at || !doc.signed_by) throw NOT_FOUND();
  const lang = (req.query as Record<string, unknown>)['lang'];
  const language: ReportLanguage = isReportLanguage(lang) ? lang : doc.content.building.address.country === 'NL' ? 'nl-NL' : 'nl-BE';
  const hash_matches = contentSha256(doc.content) === doc.content_sha256;
  const { verifies, kid } = await verifySignature(ctx.kit, doc.signature, doc.id, doc.content_sha256);
  const last = doc.content.steps.at(-1);
  return {
    language,
    id: doc.id,
    version: doc.version,
    signed_at: doc.signed_at,
    signed_by: doc.signed_by,
    address: doc.content.building.address,
    scale: doc.content.building.scale,
    epc_label: doc.content.building.epc_label,
    epc_label_after: last?.epc_label_after ?? doc.content.building.epc_label,
    target: doc.content.target,
    steps: doc.content.steps.length,
    total_estimated_cost_incl_vat: doc.content.totals.total_estimated_cost_incl_vat,
    site_visit_date: doc.content.site_visit?.date ?? null,
    content_sha256: doc.content_sha256,
    hash_matches,
    signature_verifies: verifies,
    key_id: kid,
  };
}

/** Checks the JWS against identity's published document keys, as any verifier would with the JWKS. */
async function verifySignature(
  { bus, config }: ReportingKit,
  jws: string,
  passport_id: string,
  content_sha256: string,
): Promise<{ verifies: boolean; kid: string | null }> {
  const keys = await bus.request<Jwks>(
    IdentitySubjects.documentKeys,
    { actor: null, correlation_id: randomUUID(), params: {}, query: {}, body: undefined } satisfies ServiceRequest,
    { timeoutMs: config.busTimeoutMs },
  );
  try {
    const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(keys as unknown as JSONWebKeySet), {
      algorithms: ['EdDSA'],
    });
    const claims = PassportSignaturePayload.safeParse(JSON.parse(new TextDecoder().decode(payload)));
    const verifies =
      protectedHeader.typ === PASSPORT_JWS_TYPE &&
      claims.success &&
      claims.data.passport_id === passport_id &&
      claims.data.content_sha256 === content_sha256;
    return { verifies, kid: protectedHeader.kid ?? null };
  } catch {
    return { verifies: false, kid: null };
  }
}
