import { DomainError } from '@renopath/platform';
import type { Decider } from '@renopath/platform/service/decider.ts';
import type { PassportEvent, PassportStepEdit, RenovationPassportContent, UpdatePassportBody } from '@renopath/contracts';
import { applyEdits, mergeEdits, PassportEditError } from './content.ts';

/**
 * Every passport of one estate is one stream (`renovation-passports-<estate_id>`): a new passport
 * takes the next version without a gap or a twin, whoever drafts at once, and a signed one is final.
 */
export const PASSPORT_STREAM_PREFIX = 'renovation-passports-';
export const passportStream = (estate_id: string) => `${PASSPORT_STREAM_PREFIX}${estate_id}`;

type Drafted = Extract<PassportEvent, { type: 'RenovationPassportDrafted' }>['data'];
type Amended = Extract<PassportEvent, { type: 'RenovationPassportAmended' }>['data'];
type Signed = Extract<PassportEvent, { type: 'RenovationPassportSigned' }>['data'];

export type PassportCommand =
  | ({ type: 'DraftPassport' } & Omit<Drafted, 'version'>)
  | ({ type: 'AmendPassport'; patch: UpdatePassportBody } & Pick<Amended, 'passport_id' | 'estate_id' | 'updated_at'>)
  | ({ type: 'SignPassport'; edition: number; verification_url: string } & Omit<
      Signed,
      'version' | 'calculation_job_id' | 'verification_url' | 'webhook'
    >);

export interface PassportState {
  prefilled: RenovationPassportContent;
  content: RenovationPassportContent;
  edits: { steps: PassportStepEdit[]; step_order: number[] | null };
  status: 'DRAFT' | 'SIGNED';
  version: number;
  /** Counts the amendments: a signature is of the content of one edition. */
  edition: number;
  calculation_job_id: string;
  /** Where the signature is announced, signed for the API client that drafted it (null: no webhook). */
  webhook: { url: string; client_id: string } | null;
}

export interface EstatePassports {
  passports: ReadonlyMap<string, PassportState>;
}

const conflict = (message: string) => new DomainError(409, [message]);

export const passportDecider: Decider<PassportCommand, PassportEvent, EstatePassports> = {
  initialState: () => ({ passports: new Map() }),

  decide(command, state) {
    const existing = state.passports.get(command.passport_id);
    switch (command.type) {
      case 'DraftPassport': {
        // A retried draft (same id from the idempotency key) records nothing twice.
        if (existing) return [];
        const { type: _t, ...data } = command;
        return [{ type: 'RenovationPassportDrafted', data: { ...data, version: state.passports.size + 1 } }];
      }
      case 'AmendPassport': {
        if (!existing) throw new DomainError(404, ['renovation passport not found']);
        if (existing.status === 'SIGNED') throw conflict('the renovation passport is signed: it cannot change any more');
        // The content is recomputed from the pre-filled one and every edit so far: an edit is never applied twice.
        const { patch } = command;
        const edits = mergeEdits(existing.edits, patch.steps, patch.step_order);
        const site_visit = patch.site_visit ? { ...patch.site_visit, notes: patch.site_visit.notes ?? null } : existing.content.site_visit;
        let content: RenovationPassportContent;
        try {
          content = applyEdits(existing.prefilled, edits, site_visit);
        } catch (err) {
          if (err instanceof PassportEditError) throw new DomainError(400, err.messages);
          throw err;
        }
        return [
          {
            type: 'RenovationPassportAmended',
            data: { passport_id: command.passport_id, estate_id: command.estate_id, updated_at: command.updated_at, edits, content },
          },
        ];
      }
      case 'SignPassport': {
        if (!existing) throw new DomainError(404, ['renovation passport not found']);
        if (existing.status === 'SIGNED') throw conflict('the renovation passport is already signed');
        if (existing.content.site_visit === null)
          throw new DomainError(422, ['site_visit is required before signing: record the on-site visit with PATCH first']);
        // The hash and signature were made of one edition; an amendment in between makes them stale.
        if (command.edition !== existing.edition) throw conflict('the renovation passport changed while it was being signed; sign again');
        const { type: _t, edition: _e, ...data } = command;
        // The announcement's facts travel with the event: the webhook dispatcher (another context) reads nothing else.
        return [
          {
            type: 'RenovationPassportSigned',
            data: { ...data, version: existing.version, calculation_job_id: existing.calculation_job_id, webhook: existing.webhook },
          },
        ];
      }
    }
  },

  evolve(state, event) {
    const passports = new Map(state.passports);
    const id = event.data.passport_id;
    const current = passports.get(id);
    if (event.type === 'RenovationPassportDrafted') {
      passports.set(id, {
        prefilled: event.data.content,
        content: event.data.content,
        edits: { steps: [], step_order: null },
        status: 'DRAFT',
        version: event.data.version,
        edition: 0,
        calculation_job_id: event.data.calculation_job_id,
        webhook: event.data.webhook_url && event.data.client_id ? { url: event.data.webhook_url, client_id: event.data.client_id } : null,
      });
    } else if (event.type === 'RenovationPassportAmended' && current) {
      passports.set(id, { ...current, content: event.data.content, edits: event.data.edits, edition: current.edition + 1 });
    } else if (event.type === 'RenovationPassportSigned' && current) {
      passports.set(id, { ...current, status: 'SIGNED' });
    }
    return { passports };
  },
};
