/** The relay behind an EKS audit log subscription: one audit Event per log line. */
import { describe, expect, it } from 'vitest';
import { makeLogsHandler } from '../../../functions/handlers/audit-relay/handler.ts';
import { context, fixture, logsEvent, RecordingWaker } from './support.ts';

function linesOf(name: string): string[] {
  return (JSON.parse(fixture(name)) as { items: unknown[] }).items.map((item) =>
    JSON.stringify(item),
  );
}

describe('the EKS audit log subscription', () => {
  it('wakes once for a batch of lines that matter', async () => {
    const waker = new RecordingWaker();
    const handler = makeLogsHandler({ waker });
    const lines = [
      ...linesOf('pod-create.json'),
      ...linesOf('pod-unschedulable.json'),
      ...linesOf('no-wake.json'),
    ];
    await handler(logsEvent('DATA_MESSAGE', lines), context());
    expect(waker.wakes).toEqual([
      { source: 'audit', reason: '1 pod unschedulable, 1 pod created' },
    ]);
  });

  it('ignores control messages', async () => {
    const waker = new RecordingWaker();
    await makeLogsHandler({ waker })(
      logsEvent('CONTROL_MESSAGE', ['CWL CONTROL MESSAGE: Checking health of destination']),
      context(),
    );
    expect(waker.wakes).toEqual([]);
  });

  it('skips lines that are not audit events and still relays the others', async () => {
    const waker = new RecordingWaker();
    const lines = [
      'not json at all',
      '{"kind":"Event","stage":"ResponseComplete"}',
      ...linesOf('nodes.json'),
    ];
    await makeLogsHandler({ waker })(logsEvent('DATA_MESSAGE', lines), context());
    expect(waker.wakes).toEqual([{ source: 'audit', reason: '1 node updated, 1 node deleted' }]);
  });

  it('fails, for the retry and the dead-letter queue, on a payload that is not a log batch', async () => {
    const waker = new RecordingWaker();
    const handler = makeLogsHandler({ waker });
    await expect(
      handler({ awslogs: { data: Buffer.from('plain').toString('base64') } }, context()),
    ).rejects.toThrow();
    expect(waker.wakes).toEqual([]);
  });
});
