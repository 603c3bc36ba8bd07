/**
 * Reads a JSON array of trajectory job requests (the trajectory request's body) on stdin, writes a JSON array of evaluations on stdout.
 * A bad element (schema or consistency rules) gets { "error": ... } in its place; invalid JSON exits 1.
 */
import { formatIssues, propertyOf, TrajectoryRequest } from '@renopath/contracts';
import { checkConsistency } from '../model/consistency.ts';
import { evaluate } from '../model/evaluate.ts';

type Output = Record<string, unknown>;

export function evaluateRequests(input: unknown, now: Date): Output[] {
  if (!Array.isArray(input)) throw new TypeError('stdin must hold a JSON array of trajectory requests');
  return input.map((element): Output => {
    const parsed = TrajectoryRequest.safeParse(element, { reportInput: true });
    if (!parsed.success) {
      return { error: { code: 'INVALID_REQUEST', messages: formatIssues(parsed.error.issues, 'request') } };
    }
    const problems = checkConsistency(parsed.data, { now });
    if (problems.length > 0) return { error: { code: 'INCONSISTENT_REQUEST', messages: problems } };
    try {
      return evaluate(propertyOf(parsed.data)) as unknown as Output;
    } catch (err) {
      return { error: { code: 'EVALUATION_FAILED', messages: [err instanceof Error ? err.message : String(err)] } };
    }
  });
}

/** Keep the output readable: 3 decimals are far below the model's precision. */
const round = (_key: string, value: unknown) =>
  typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1000) / 1000 : value;

async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (err) {
    process.stderr.write(`energy:evaluate: invalid JSON on stdin (${err instanceof Error ? err.message : String(err)})\n`);
    process.exitCode = 1;
    return;
  }
  let out: Output[];
  try {
    out = evaluateRequests(input, new Date());
  } catch (err) {
    process.stderr.write(`energy:evaluate: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`${JSON.stringify(out, round, 2)}\n`);
}

await main();
