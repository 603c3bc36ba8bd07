import { EstatesSubjects } from './estates.ts';
import { IdentitySubjects } from './service.ts';

/**
 * Who listens to whom (issue 9): for each context, the contexts whose events it consumes
 * (`evt.<origin>.*`). A write's effects can only reach the origin's consumers, their consumers and so
 * on, so the gateway's read-your-writes settle asks those and no one else. Keep it equal to the
 * `bus.consume(...)` subjects in services/<context>/src: a consumer left out here is not waited for,
 * one too many costs settle requests (and through WORKFLOW_COMMANDS, more contexts). A context that is
 * not running (not in the gateway's RENOPATH_CONTEXTS) is never asked, nor passes a write on.
 */
export const EVENT_CONSUMPTION = {
  identity: [],
  estates: ['identity'],
  renovations: ['identity', 'estates'],
  calculations: ['identity', 'estates'],
  reporting: ['identity', 'estates', 'renovations', 'calculations'],
} as const satisfies Record<string, readonly string[]>;

/**
 * Commands whose handler sends a command to another context on the request path, with the same
 * correlation id: the other context writes for that request too, so its consumers are waited for as
 * well. Estates adds an estate member by having identity invite the person as a client.
 */
export const CROSS_CONTEXT_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  [EstatesSubjects.addMember]: [IdentitySubjects.attachClientMember],
};

/**
 * Contexts whose process managers, following their own writes, send commands to other contexts under
 * the request's correlation id: a calculation job creates or updates its estate and its renovation.
 */
export const WORKFLOW_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  calculations: ['estates', 'renovations'],
};

/** `cmd.estates.update-estate` -> `estates`; null for a subject that names no context. */
export function contextOfSubject(subject: string): string | null {
  const [kind, context] = subject.split('.');
  return (kind === 'cmd' || kind === 'qry') && context ? context : null;
}

/**
 * The contexts a write in `origin` can reach: those consuming its events and those its workflows
 * command, and theirs in turn (transitively), `origin` excluded. With `running`, only through
 * contexts that run: one that does not cannot pass a write on.
 */
export function consumersOf(origin: string, running?: readonly string[]): string[] {
  const reached = new Set<string>();
  const pending = [origin];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const next = [
      ...Object.entries(EVENT_CONSUMPTION)
        .filter(([, origins]) => (origins as readonly string[]).includes(current))
        .map(([consumer]) => consumer),
      ...(WORKFLOW_COMMANDS[current] ?? []),
    ];
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
