import { expect } from 'vitest';
import { DomainError } from '../ports/bus.ts';
import { fold, type Decider, type DomainEvent } from './decider.ts';

/** Decider specs in the `given(events).when(command).then(events)` shape (house style: decider specs given/when/then). */
export function deciderSpec<C, E extends DomainEvent, S>(decider: Decider<C, E, S>) {
  return {
    given(events: E[]) {
      return {
        when(command: C) {
          const run = () => decider.decide(command, fold(decider, events));
          return {
            then(expected: E[]) {
              expect(run()).toEqual(expected);
            },
            thenFails(status: DomainError['status'], message?: RegExp) {
              let caught: unknown;
              try {
                run();
              } catch (err) {
                caught = err;
              }
              expect(caught).toBeInstanceOf(DomainError);
              expect((caught as DomainError).status).toBe(status);
              if (message) expect((caught as DomainError).messages.join(' ')).toMatch(message);
            },
          };
        },
      };
    },
  };
}
