import { CalculationsSubjects } from './calculations.ts';
import { EstatesSubjects } from './estates.ts';
import { IdentitySubjects } from './service.ts';

const identity = (...types: string[]) => types.map((type) => `evt.identity.${type}`);
const estates = (...types: string[]) => types.map((type) => `evt.estates.${type}`);
const calculations = (...types: string[]) => types.map((type) => `evt.calculations.${type}`);

/**
 * Every durable consumer of another context's events, by name (`<context>-<what>`, the name the bus
 * keeps its position under: it must not change, or the consumer would start again from the first
 * event), with the subjects it follows. Each reactor opens its consumer from here (`eventConsumer`),
 * and the settle graph below is derived from it, so the two cannot disagree.
 */
export const EVENT_CONSUMERS = {
  'estates-directory': identity('OrganizationMemberAdded', 'OrganizationMemberRemoved'),
  'estates-estate-invitation': identity('OrganizationMemberInvited'),
  'estates-member-activation': identity('OrganizationMemberAdded'),
  'estates-organization-members': identity('OrganizationMemberRemoved'),
  'estates-member-details': identity('UserUpdated'),
  'renovations-identity': identity('OrganizationMemberAdded', 'OrganizationMemberRemoved', 'UserUpdated'),
  'renovations-estates': ['evt.estates.>'],
  // A finished trajectory job's consequences: estates writes the estate's part, renovations makes the renovation.
  'estates-calculation-jobs': calculations('CalculationJobFinished'),
  'renovations-calculation-jobs': calculations('CalculationJobFinished'),
  'calculations-identity': identity('OrganizationMemberAdded', 'OrganizationMemberRemoved'),
  'calculations-estates': estates(
    'EstateCreated',
    'EstateUpdated',
    'EstateDeleted',
    'EstateMemberAdded',
    'EstateMemberActivated',
    'EstateMemberRemoved',
  ),
  // The webhook dispatcher announces a signed renovation passport (docs/webhooks.md).
  'calculations-passports': ['evt.reporting.RenovationPassportSigned'],
  // The FINISHED webhook of a trajectory job waits until renovations holds (or declined) the job's renovation.
  'calculations-job-renovations': ['evt.renovations.RenovationCreated', 'evt.renovations.RenovationTrajectoryDeclined'],
  'reporting-identity': ['evt.identity.>'],
  'reporting-estates': ['evt.estates.>'],
  'reporting-renovations': ['evt.renovations.>'],
  // Only what the referral page's copy of a job changes on: a job's delivery and attempt events are
  // each as large as its result, and a consumer on every calculations event read them all to skip them.
  'reporting-calculations': calculations('CalculationJobCreated', 'CalculationJobEstateLinked', 'CalculationJobFinished'),
} as const satisfies Record<string, readonly string[]>;

export type EventConsumerName = keyof typeof EVENT_CONSUMERS;

/** `evt.estates.>` -> `estates`. */
const originOf = (subject: string): string => subject.split('.')[1]!;

/** A consumer's subjects, and the contexts they come from (what the settlement tracks it for). */
export function eventConsumer(name: EventConsumerName): { subjects: string[]; origins: string[] } {
  const subjects = [...EVENT_CONSUMERS[name]];
  return { subjects, origins: [...new Set(subjects.map(originOf))] };
}

/** The other contexts whose events a context's consumers follow. */
function originsConsumedBy(context: string): string[] {
  const names = (Object.keys(EVENT_CONSUMERS) as EventConsumerName[]).filter((name) => name.startsWith(`${context}-`));
  return [...new Set(names.flatMap((name) => eventConsumer(name).origins))].filter((origin) => origin !== context);
}

/**
 * Who listens to whom, derived from EVENT_CONSUMERS: for each context, the contexts whose events it
 * consumes. A write's effects can only reach the origin's consumers, their consumers and so on, so
 * the gateway's read-your-writes settle asks those and no one else. A context that is not running
 * (not in the gateway's RENOPATH_CONTEXTS) is never asked, nor passes a write on.
 */
export const EVENT_CONSUMPTION = {
  identity: originsConsumedBy('identity'),
  estates: originsConsumedBy('estates'),
  renovations: originsConsumedBy('renovations'),
  calculations: originsConsumedBy('calculations'),
  reporting: originsConsumedBy('reporting'),
} satisfies Record<string, readonly string[]>;

/**
 * Commands whose request writes in another context too, with the same correlation id, so its consumers
 * are waited for as well: estates adds an estate member by having identity invite the person as a
 * client; the gateway has estates describe a trajectory job's estate before calculations records the job.
 */
export const CROSS_CONTEXT_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  [EstatesSubjects.addMember]: [IdentitySubjects.attachClientMember],
  [CalculationsSubjects.createTrajectoryJob]: [EstatesSubjects.describeEstateForJob],
};

/** `cmd.estates.update-estate` -> `estates`; null for a subject that names no context. */
export function contextOfSubject(subject: string): string | null {
  const [kind, context] = subject.split('.');
  return (kind === 'cmd' || kind === 'qry') && context ? context : null;
}

/**
 * The contexts a write in `origin` can reach: those consuming its events, and theirs in turn
 * (transitively), `origin` excluded. With `running`, only through
 * contexts that run: one that does not cannot pass a write on.
 */
export function consumersOf(origin: string, running?: readonly string[]): string[] {
  const reached = new Set<string>();
  const pending = [origin];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const next = Object.entries(EVENT_CONSUMPTION)
      .filter(([, origins]) => (origins as readonly string[]).includes(current))
      .map(([consumer]) => consumer);
    for (const context of next) {
      if (context === origin || reached.has(context) || (running && !running.includes(context))) continue;
      reached.add(context);
      pending.push(context);
    }
  }
  return [...reached];
}

/**
 * The contexts a request on `subject` may write in, directly or by cascade: the subject's context, the
 * contexts its handler commands, and every context those reach (`consumersOf`). Null when the subject
 * names a context this graph does not know (then nothing can be ruled out).
 */
export function contextsAffectedBy(subject: string, running?: readonly string[]): string[] | null {
  const origins = [subject, ...(CROSS_CONTEXT_COMMANDS[subject] ?? [])].map(contextOfSubject);
  if (origins.some((o) => o === null || !(o in EVENT_CONSUMPTION))) return null;
  const affected = new Set<string>();
  for (const origin of origins as string[]) {
    affected.add(origin);
    for (const reached of consumersOf(origin, running)) affected.add(reached);
  }
  return [...affected];
}
