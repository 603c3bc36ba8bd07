/**
 * Tells whoever waits in this process for its copy of an estate (the calculation-jobs reactor, waiting
 * for estates' writes of a job) that the copy just changed, so it looks again at once instead of on a
 * timer. A wake is only a hint to read again: the copy in the read store stays the one truth, and a
 * waiter whose copy is written by another process (replicas share the durable consumers) still looks
 * again when its bound runs out.
 */
export class EstateCopyChanges {
  private readonly waiting = new Map<string, Set<() => void>>();

  /** The copy of `estate_id` was written (committed): every waiter on it looks again. */
  changed(estate_id: string): void {
    const wakes = this.waiting.get(estate_id);
    if (!wakes) return;
    this.waiting.delete(estate_id);
    for (const wake of wakes) wake();
  }

  /**
   * Settles at the copy's next change or after `ms`, whichever comes first. Taken before the copy is
   * read, so a change committed while the read is under way is not missed.
   */
  next(estate_id: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      let wakes = this.waiting.get(estate_id);
      if (!wakes) this.waiting.set(estate_id, (wakes = new Set()));
      const wake = () => {
        clearTimeout(timer);
        const current = this.waiting.get(estate_id);
        current?.delete(wake);
        if (current?.size === 0) this.waiting.delete(estate_id);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakes.add(wake);
    });
  }
}
