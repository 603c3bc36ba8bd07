import type { ReadStore } from '@renopath/platform';
import { leadershipOf } from '@renopath/platform/service/context-lease.ts';
import { J, type JobDoc, type LiveJobDoc } from '../job-views/job-views.projection.ts';

/**
 * The jobs waiting for a worker. The event store is the durable queue: a job is runnable while its
 * stream says NOT_STARTED (and ready) or RUNNING under a lease that ran out. This in-memory list is
 * only the fast path between an append and a waiting worker; `sweep` refills it from the read model
 * (after a restart, and for leases that ran out), so nothing depends on it surviving.
 *
 * Replicas over shared stores: each one keeps its own list and sweeps it (a worker's claim reaches
 * any replica; two replicas offering one job is harmless, the job stream's StartJob takes it once),
 * while deactivating expired jobs, a write, is left to the replica holding the context's lease.
 */
export class WorkQueue {
  private readonly queued: string[] = [];
  private readonly members = new Set<string>();
  /**
   * Claims waiting for a job, oldest first. A pushed job is handed to one of them: waking every
   * waiter for each job (they would all look, and all but one wait again) costs a timer and a turn
   * of the loop per waiting worker slot per job.
   */
  private readonly waiting: Array<(job_id: string | null) => void> = [];
  private closed = false;

  constructor(private readonly reads: ReadStore) {}

  /** Jobs queued and not yet handed to a worker (renopath_job_queue_depth). */
  get depth(): number {
    return this.queued.length;
  }

  push(job_id: string): void {
    if (this.members.has(job_id)) return;
    const waiter = this.waiting.shift();
    if (waiter) {
      waiter(job_id);
      return;
    }
    this.members.add(job_id);
    this.queued.push(job_id);
  }

  /** The next job id, waiting up to `waitMs` for one; null when none came. */
  next(waitMs: number, signal?: AbortSignal): Promise<string | null> {
    const id = this.queued.shift();
    if (id !== undefined) {
      this.members.delete(id);
      return Promise.resolve(id);
    }
    if (this.closed || signal?.aborted || waitMs <= 0) return Promise.resolve(null);
    return new Promise<string | null>((resolve) => {
      const settle = (job_id: string | null) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', giveUp);
        resolve(job_id);
      };
      // A waiter that gives up leaves the line, so no job is handed to a claim no one awaits.
      const giveUp = () => {
        const at = this.waiting.indexOf(settle);
        if (at >= 0) this.waiting.splice(at, 1);
        settle(null);
      };
      const timer = setTimeout(giveUp, waitMs);
      signal?.addEventListener('abort', giveUp);
      this.waiting.push(settle);
    });
  }

  /** Queues every runnable job the read model shows: never started, or running under a lease that ran out. */
  async sweep(now: Date): Promise<void> {
    const iso = now.toISOString();
    const sort = [{ field: 'created_position', order: 'ASC' as const }];
    const fresh = await this.reads.query<LiveJobDoc>(J.live, {
      filter: { status: 'NOT_STARTED', ready: true },
      sort,
      page: 1,
      pageSize: 500,
    });
    for (const doc of fresh.items) this.push(doc.id);
    const lost = await this.reads.query<LiveJobDoc>(J.live, {
      filter: { status: 'RUNNING', lease_until: { $lt: iso } },
      sort,
      page: 1,
      pageSize: 500,
    });
    for (const doc of lost.items) this.push(doc.id);
  }

  /** Jobs past their `expires_at` and not yet deactivated (a slow scan: run it seldom); none on a replica that does not lead. */
  async expired(now: Date): Promise<JobDoc[]> {
    if (leadershipOf(this.reads)?.leading === false) return [];
    const { items } = await this.reads.query<JobDoc>(J.jobs, {
      filter: { 'job.expires_at': { $lt: now.toISOString() }, 'job.deactivated_at': null },
      page: 1,
      pageSize: 500,
    });
    return items;
  }

  close(): void {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter(null);
  }
}
