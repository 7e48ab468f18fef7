/** Karpenter's scheduling-error sentence (core: scheduling/scheduler.go NonPendingPodSchedulingErrors). */
import { describe, expect, it } from 'vitest';
import { notAllPodsWouldSchedule } from '../../../functions/domain/disruption/unconsolidatable.ts';

const stuck = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ pod: `default/web-${i}`, error: 'no fit' }));

describe('notAllPodsWouldSchedule', () => {
  it.each([
    { pods: 0, sentence: 'No Pod Scheduling Errors' },
    { pods: 1, sentence: 'Not all pods would schedule, default/web-0 => no fit ' },
    {
      pods: 7,
      sentence:
        'Not all pods would schedule, default/web-0 => no fit default/web-1 => no fit default/web-2 => no fit default/web-3 => no fit default/web-4 => no fit  and 2 other(s)',
    },
  ])('lists at most five pods as Karpenter does: $pods', ({ pods, sentence }) => {
    // Act
    const text = notAllPodsWouldSchedule(stuck(pods));

    // Assess
    expect(text).toBe(sentence);
  });
});
