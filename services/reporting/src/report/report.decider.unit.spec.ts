import { describe, expect, it } from 'vitest';
import { fold } from '@renopath/platform/service/decider.ts';
import { reportDecider, type RecordReport } from './report.decider.ts';

const command: RecordReport = {
  type: 'RecordReport',
  report_id: '00000000-0000-4000-8000-000000000001',
  renovation_id: '00000000-0000-4000-8000-000000000002',
  estate_id: '00000000-0000-4000-8000-000000000003',
  organization_id: '00000000-0000-4000-8000-000000000004',
  language: 'fr-BE',
  name: 'report.pdf',
  blob_key: 'reports/00000000-0000-4000-8000-000000000001.pdf',
  created_at: '2026-11-23T10:00:00.000Z',
};

describe('report decider', () => {
  it('records a report once: a retried request records nothing twice', () => {
    const events = reportDecider.decide(command, reportDecider.initialState());
    const { type: _type, ...data } = command;
    expect(events).toEqual([{ type: 'ReportCreated', data }]);
    const after = fold(reportDecider, events);
    expect(reportDecider.decide(command, after)).toEqual([]);
  });
});
