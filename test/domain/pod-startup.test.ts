/**
 * Pod startup and binding durations, adapted from core: pkg/controllers/metrics/pod/
 * suite_test.go (v1.14.1): a pod is observed once its Ready (or PodScheduled) condition turns
 * True, from its creation, and not while the condition is missing, Unknown or False. Karpenter
 * observes a pod once by remembering it; a pass observes the transitions since the pass before.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../functions/domain/pod.ts';
import {
  POD_STATUS_LAG_MS,
  podStartups,
  type TransitionWindow,
  transitionWindow,
} from '../../functions/domain/pod-startup.ts';
import { aPod } from '../support/builders.ts';

const CREATED = '2026-06-01T10:00:00Z';
const at = (seconds: number) => new Date(Date.parse(CREATED) + seconds * 1000).toISOString();

/** The pass before started 60 s after the pod's creation, this one 120 s after. */
const WINDOW: TransitionWindow = {
  after: Date.parse(at(60)) - POD_STATUS_LAG_MS,
  upTo: Date.parse(at(120)) - POD_STATUS_LAG_MS,
};

function aStartedPod(status: Partial<Pod>): Pod {
  return { ...aPod({ nodeName: 'node-1', creationTimestamp: CREATED }), ...status };
}

describe('pod startup durations', () => {
  it.each([
    { case: 'is Running without a Ready condition', status: { phase: 'Running' } },
    { case: 'has Succeeded, no longer Ready', status: { phase: 'Succeeded' } },
    { case: 'has Failed, no longer Ready', status: { phase: 'Failed' } },
  ])('observes nothing of a pod that $case', ({ status }) => {
    // Act
    const observed = podStartups([aStartedPod(status)], WINDOW);

    // Assess
    expect(observed.startup).toEqual([]);
  });

  it('observes the time from creation to Ready and to binding, once each', () => {
    // Prepare: bound 55 s and Ready 95 s after creation, both seen first by this pass
    const pod = aStartedPod({ phase: 'Running', scheduledAt: at(55), readyAt: at(95) });

    // Act
    const observed = podStartups([pod], WINDOW);

    // Assess
    expect(observed).toEqual({ startup: [95], bound: [55] });
  });

  it.each([
    { case: 'the pass before counted', seconds: 50, counted: false },
    { case: 'the pass before could not see yet', seconds: 55, counted: true },
    { case: 'this pass can see', seconds: 110, counted: true },
    { case: 'may not have reached the API server yet', seconds: 115, counted: false },
  ])('counts a Ready transition $case: $counted', ({ seconds, counted }) => {
    // Prepare
    const pod = aStartedPod({ phase: 'Running', readyAt: at(seconds) });

    // Act
    const observed = podStartups([pod], WINDOW);

    // Assess
    expect(observed.startup).toEqual(counted ? [seconds] : []);
  });

  it('leaves out the Ready of a pod whose container restarted, which may not be its first', () => {
    // Prepare
    const pod = aStartedPod({
      phase: 'Running',
      scheduledAt: at(55),
      readyAt: at(95),
      containerRestarts: 1,
    });

    // Act
    const observed = podStartups([pod], WINDOW);

    // Assess
    expect(observed).toEqual({ startup: [], bound: [55] });
  });

  it('has no window for the first pass, and one from the pass before less the lag', () => {
    // Prepare
    const passStart = new Date(at(120));

    // Act
    const first = transitionWindow(undefined, passStart);
    const next = transitionWindow(at(60), passStart);

    // Assess
    expect(first).toBeUndefined();
    expect(next).toEqual(WINDOW);
  });
});
