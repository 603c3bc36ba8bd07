import type { Stack } from './stack.ts';

type Api = ReturnType<Stack['as']>;

/**
 * A FINISHED trajectory job's renovation is made by the renovations context after the job finishes
 * (its webhook waits for it; docs/webhooks.md): a client that polls the job waits for the renovation
 * too. Answers once the renovation is there, or the token may not read renovations (403).
 */
export async function untilRenovation(a: Api, renovation_id: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await a.get(`/v1/renovations/${renovation_id}`);
    if (res.statusCode !== 404) return res;
    if (Date.now() > deadline) throw new Error(`renovation ${renovation_id} still not there`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A job once FINISHED, FAILED or STOPPED (and a FINISHED trajectory job's renovation made), as GET answers it. */
export async function untilFinal(a: Api, id: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await a.get(`/v1/calculation-jobs/${id}`);
    if (res.statusCode !== 200) throw new Error(`GET job ${id}: ${res.statusCode} ${res.body}`);
    const job = res.json();
    if (['FINISHED', 'FAILED', 'STOPPED'].includes(job.calculation_job_status)) {
      if (job.calculation_job_status === 'FINISHED' && job.metadata.renovation_id)
        await untilRenovation(a, job.metadata.renovation_id, timeoutMs);
      return job;
    }
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.calculation_job_status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
