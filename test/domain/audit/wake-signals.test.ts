/** Which audit events bring the next pass sooner, and the one-line reason a wake carries. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../../functions/domain/audit/audit-event.ts';
import { summarizeSignals, wakeSignal } from '../../../functions/domain/audit/wake-signals.ts';

const done = (event: Partial<AuditEvent>): AuditEvent => ({
  verb: 'create',
  stage: 'ResponseComplete',
  code: 201,
  ...event,
});

const unschedulable = {
  status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] },
};

describe('wake signals', () => {
  it.each([
    [done({ objectRef: { resource: 'pods' } }), 'pod created'],
    [done({ verb: 'delete', objectRef: { resource: 'pods', name: 'p' } }), 'pod deleted'],
    [
      done({
        verb: 'patch',
        objectRef: { resource: 'pods', subresource: 'status' },
        requestObject: unschedulable,
      }),
      'pod unschedulable',
    ],
    [
      done({
        verb: 'update',
        objectRef: { resource: 'pods', subresource: 'status' },
        responseObject: unschedulable,
      }),
      'pod unschedulable',
    ],
    [done({ objectRef: { resource: 'nodes' } }), 'node created'],
    [
      done({ verb: 'patch', objectRef: { resource: 'nodes', subresource: 'status' } }),
      'node updated',
    ],
    [done({ verb: 'delete', objectRef: { resource: 'nodes' } }), 'node deleted'],
  ])('%j is %s', (event, signal) => {
    expect(wakeSignal(event)).toBe(signal);
  });

  it.each([
    ['a binding', done({ objectRef: { resource: 'pods', subresource: 'binding' } })],
    [
      'a ready pod status',
      done({
        verb: 'patch',
        objectRef: { resource: 'pods', subresource: 'status' },
        requestObject: { status: { phase: 'Running' } },
      }),
    ],
    ['exec', done({ objectRef: { resource: 'pods', subresource: 'exec' } })],
    ['a refused create', done({ code: 403, objectRef: { resource: 'pods' } })],
    [
      'a request still in progress',
      done({ stage: 'RequestReceived', objectRef: { resource: 'pods' } }),
    ],
    ['a list', done({ verb: 'list', objectRef: { resource: 'pods' } })],
    ['a config map', done({ objectRef: { resource: 'configmaps' } })],
  ])('%s is no signal', (_, event) => {
    expect(wakeSignal(event)).toBeUndefined();
  });

  it('sums a batch up in a fixed order', () => {
    const events = [
      done({ verb: 'delete', objectRef: { resource: 'nodes' } }),
      done({ objectRef: { resource: 'pods' } }),
      done({ objectRef: { resource: 'pods' } }),
      done({
        verb: 'patch',
        objectRef: { resource: 'pods', subresource: 'status' },
        requestObject: unschedulable,
      }),
    ];
    expect(summarizeSignals(events)).toEqual({
      relevant: 4,
      reason: '1 pod unschedulable, 2 pods created, 1 node deleted',
    });
  });

  it('never throws on any request body, and reads alone never wake', () => {
    const event = fc.record({
      verb: fc.constantFrom('get', 'list', 'watch', 'create', 'patch', 'update', 'delete'),
      stage: fc.constantFrom('RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'),
      objectRef: fc.option(
        fc.record({
          resource: fc.constantFrom('pods', 'nodes', 'secrets'),
          subresource: fc.option(fc.constantFrom('status', 'binding', 'exec'), { nil: undefined }),
        }),
        { nil: undefined },
      ),
      code: fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined }),
      requestObject: fc.jsonValue(),
      responseObject: fc.jsonValue(),
    });
    fc.assert(
      fc.property(fc.array(event), (events) => {
        summarizeSignals(events);
        const reads = events.filter((e) => ['get', 'list', 'watch'].includes(e.verb));
        expect(summarizeSignals(reads)).toBeUndefined();
      }),
    );
  });
});
