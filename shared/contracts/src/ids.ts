import { createHash } from 'node:crypto';
/** An id as every context hands them out: a UUID, in any case (paths are lowered before a lookup). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_PATTERN.test(value);

/**
 * The UUID a key names for one purpose: the same key and purpose give the same id in every process,
 * so a retried request, or two contexts following one event, name one thing (a version-4-shaped
 * UUID from the key's SHA-256).
 */
export function derivedId(key: string, purpose: string): string {
  const bytes = createHash('sha256').update(`renopath-id\0${purpose}\0${key}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The key of what a calculation job makes in another context (its renovation, a roof of a kind). */
export const calculationJobKey = (job_id: string, what: string) => `calculation-job:${job_id}:${what}`;

/** The renovation a trajectory job's plan makes: one per job, named by the job, so calculations states it and renovations creates it. */
export const renovationIdOfJob = (job_id: string) => derivedId(calculationJobKey(job_id.toLowerCase(), 'renovation'), 'renovation');

/**
 * The roof of a kind a trajectory job's plan adds to its estate when the estate has none of that
 * kind (estates adds it under this id; renovations places the plan's roof steps on it).
 */
export const roofIdOfJob = (job_id: string, kind: string) => derivedId(calculationJobKey(job_id.toLowerCase(), `roof-${kind}`), 'roof');
