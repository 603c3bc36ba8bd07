import type { Decider } from '@renopath/platform/service/decider.ts';
import type { IdentityEvent } from '@renopath/contracts';

type OnboardingEvent = Extract<IdentityEvent, { type: 'OnboardingStarted' }>;
export type OnboardingTerms = OnboardingEvent['data'];

export type OnboardingCommand = { type: 'StartOnboarding' } & OnboardingTerms;

export interface OnboardingState {
  started: boolean;
}

/** One stream per onboarded organization: the workflow's start, which the process manager carries out. */
export const onboardingStream = (organization_id: string) => `onboarding-${organization_id}`;

export const onboardingDecider: Decider<OnboardingCommand, OnboardingEvent, OnboardingState> = {
  initialState: () => ({ started: false }),
  decide({ type: _command, ...terms }, state) {
    // Started once: a repeated start is the same workflow, already under way.
    if (state.started) return [];
    return [{ type: 'OnboardingStarted', data: terms }];
  },
  evolve(state, event) {
    return event.type === 'OnboardingStarted' ? { started: true } : state;
  },
};
