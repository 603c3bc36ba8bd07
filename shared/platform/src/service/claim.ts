import { DomainError } from '../ports/bus.ts';
import type { Decider, DomainEvent } from './decider.ts';

/**
 * A unique key owned by one holder (an email address by one user, an external id by one estate):
 * one stream per key makes it unique without a cross-stream transaction. Claiming twice for the same
 * holder and releasing for anyone but the holder decide nothing, so a retried or replayed step (a
 * process manager resumed from its checkpoint) appends nothing twice.
 *
 * Each use keeps its own command and event names and data (stored events must not change shape);
 * the spec only says how to read the holder and build the event data.
 */
export interface ClaimState {
  holder: string | null;
}

export interface ClaimSpec<C extends { type: string }, E extends DomainEvent> {
  claim: C['type'];
  release: C['type'];
  claimed: E['type'];
  released: E['type'];
  /** Who a command claims or releases for. */
  holderOf(command: C): string;
  /** Who a claimed event gives the key to. */
  holderIn(event: E): string;
  /** The data of the event a command records (the normalized key and the holder). */
  data(command: C): E['data'];
  /** Why a claim of a key someone else holds is refused (409). */
  conflict(command: C, holder: string): string;
}

export function claimDecider<C extends { type: string }, E extends DomainEvent>(spec: ClaimSpec<C, E>): Decider<C, E, ClaimState> {
  return {
    initialState: () => ({ holder: null }),
    decide(command, state) {
      const holder = spec.holderOf(command);
      if (command.type === spec.claim) {
        if (state.holder === holder) return [];
        if (state.holder !== null) throw new DomainError(409, [spec.conflict(command, state.holder)]);
        return [{ type: spec.claimed, data: spec.data(command) } as E];
      }
      if (command.type === spec.release) {
        if (state.holder !== holder) return [];
        return [{ type: spec.released, data: spec.data(command) } as E];
      }
      throw new Error(`claim decider: unknown command ${command.type}`);
    },
    evolve(state, event) {
      if (event.type === spec.claimed) return { holder: spec.holderIn(event) };
      if (event.type === spec.released) return { holder: null };
      return state;
    },
  };
}
