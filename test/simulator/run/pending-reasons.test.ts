import { describe, expect, it } from 'vitest';
import { toldUnschedulable } from '../../../simulator/run/pending-reasons.ts';

const failed = (pod: string, reason: string, lastTimestamp: string) => ({
  involvedObject: { kind: 'Pod', namespace: 'batch', name: pod },
  reason: 'FailedScheduling',
  message: `Failed to schedule pod, ${reason}`,
  lastTimestamp,
});

describe('why pending pods wait, read from their events', () => {
  it("takes each pod's latest FailedScheduling reason, whatever order the server lists them in", () => {
    // Prepare
    const events = [
      failed(
        'worker-1',
        'all available instance types exceed limits for nodepool: "default"',
        '2026-01-01T00:02:00Z',
      ),
      failed('worker-1', 'no instance type satisfied resources', '2026-01-01T00:01:00Z'),
      failed('worker-2', 'incompatible with nodepool "default"', '2026-01-01T00:01:30Z'),
    ];
    // Act
    const reasons = toldUnschedulable(events);
    // Assess
    expect(Object.fromEntries(reasons)).toEqual({
      'batch/worker-1': 'all available instance types exceed limits for nodepool: "default"',
      'batch/worker-2': 'incompatible with nodepool "default"',
    });
  });

  it("ignores other reasons, other objects, and kube-scheduler's own FailedScheduling", () => {
    // Prepare
    const events = [
      { ...failed('worker-1', 'x', '2026-01-01T00:01:00Z'), reason: 'Nominated' },
      {
        ...failed('worker-2', 'x', '2026-01-01T00:01:00Z'),
        involvedObject: { kind: 'Node', name: 'n' },
      },
      { ...failed('worker-3', 'x', '2026-01-01T00:01:00Z'), message: '0/3 nodes are available' },
    ];
    // Act
    const reasons = toldUnschedulable(events);
    // Assess
    expect(reasons.size).toBe(0);
  });
});
