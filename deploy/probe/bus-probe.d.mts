/** Types of bus-probe.mjs (a plain script, so that the image runs it with node alone). */
export interface ProbeOptions {
  monitor: string;
  name: string;
  serves: string | null;
  live: boolean;
  timeoutMs: number;
}
export interface Verdict {
  ok: boolean;
  reason: string;
}
export function parseProbeArgs(argv: readonly string[]): ProbeOptions;
export function localAddresses(): string[];
export function judgeConnections(
  connz: unknown,
  options: { name: string; serves?: string | null; prefix?: string; addresses: readonly string[] },
): Verdict;
