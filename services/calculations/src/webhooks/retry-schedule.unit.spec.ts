import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './retry-schedule.ts';

describe('parseRetrySchedule', () => {
  it('reads the default schedule of docs/webhooks.md as delays in ms', () => {
    expect(parseRetrySchedule(DEFAULT_RETRY_SCHEDULE)).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]);
  });

  it('takes ms units, spaces around items and a fractional value', () => {
    expect(parseRetrySchedule('0, 100ms ,1.5s')).toEqual([0, 100, 1500]);
  });

  it.each(['', '5', '0,,5s', '5d', '-5s', 'soon', '0,5 s', '30000h'])('refuses %j naming the variable', (text) => {
    expect(() => parseRetrySchedule(text)).toThrow(/RENOPATH_WEBHOOK_RETRY_SCHEDULE/);
  });
});
