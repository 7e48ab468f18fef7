/** The relay behind an EKS audit log subscription: one audit Event per log line. */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_LOGS_PAYLOAD_BYTES } from '../../../functions/handlers/audit-relay/event.ts';
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

  it('refuses a gzip bomb as a bad payload, without inflating it past the cap', async () => {
    // Prepare: twice the cap of one character gzips a thousandfold, as a batch's JSON never
    // would (600 MB of it is 600 KB of gzip).
    const waker = new RecordingWaker();
    const handler = makeLogsHandler({ waker });
    const bomb = gzipSync(Buffer.alloc(2 * MAX_LOGS_PAYLOAD_BYTES, 0x20));
    const event = { awslogs: { data: bomb.toString('base64') } };

    // Act
    const failure = handler(event, context());

    // Assess
    expect(bomb.length).toBeLessThan(MAX_LOGS_PAYLOAD_BYTES / 500);
    await expect(failure).rejects.toThrow(
      `reading log subscription payload: it gunzips to more than ${MAX_LOGS_PAYLOAD_BYTES} bytes`,
    );
    expect(waker.wakes).toEqual([]);
  });

  it('fails an event that is not a subscription delivery, naming what it lacks', async () => {
    // Prepare
    const waker = new RecordingWaker();
    const handler = makeLogsHandler({ waker });

    // Act
    const failure = handler({ records: [] } as never, context());

    // Assess
    await expect(failure).rejects.toThrow(
      'reading log subscription event: awslogs: is required (object)',
    );
    expect(waker.wakes).toEqual([]);
  });
});
