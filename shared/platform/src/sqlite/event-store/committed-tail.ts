import type { EventRow } from './schema.ts';

/** Rows of its own latest commits a store keeps for its subscriptions (trimmed to this once it holds twice as many). */
const TAIL_ROWS = 1024;

/**
 * The rows a store itself committed last (and synced), in position order and without a gap: what its
 * subscriptions (a context's relay, projections, process managers and reactors, each tailing the same
 * log) would otherwise each read back from SQLite right after the commit that woke them. It only ever
 * answers with the rows that directly follow a position; any other read (a subscription catching up,
 * rows another connection wrote) goes to the database, so a miss costs a query and never an event.
 */
export class CommittedTail {
  private rows: EventRow[] = [];

  /** Rows of one commit, in order. A gap (another connection wrote in between) starts the tail afresh. */
  add(rows: readonly EventRow[]): void {
    for (const row of rows) {
      const last = this.rows[this.rows.length - 1];
      if (last && row.position !== last.position + 1n) this.rows = [];
      this.rows.push(row);
    }
    if (this.rows.length > 2 * TAIL_ROWS) this.rows = this.rows.slice(-TAIL_ROWS);
  }

  /** The last position held, or null when empty. */
  get last(): bigint | null {
    return this.rows.length === 0 ? null : this.rows[this.rows.length - 1]!.position;
  }

  /** Up to `max` rows directly after `after`, or null when the tail does not hold the row after it. */
  after(after: bigint, max: number): EventRow[] | null {
    const first = this.rows[0];
    if (!first || after + 1n < first.position) return null;
    const index = Number(after + 1n - first.position);
    return index < this.rows.length ? this.rows.slice(index, index + max) : null;
  }
}
