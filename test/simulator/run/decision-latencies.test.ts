import { describe, expect, it } from 'vitest';
import { DecisionLatencies } from '../../../simulator/run/decision-latencies.ts';

describe('decision latencies of a simulation run', () => {
  it('counts a pod put on a claim already on its way from the pass that placed it', () => {
    // Prepare
    const latencies = new DecisionLatencies();
    latencies.marked(15, ['shop/api-1']);
    // Act
    latencies.placed(16, ['shop/api-1']);
    latencies.placed(31, ['shop/api-1']);
    // Assess
    expect(latencies.samplesMs()).toEqual([1000]);
  });

  it('does not count a replacement launched for a pod kube-scheduler bound long before', () => {
    // Prepare
    const latencies = new DecisionLatencies();
    latencies.marked(30, ['batch/worker-1', 'batch/worker-2']);
    latencies.bound(['batch/worker-1']);
    // Act
    latencies.placed(240, ['batch/worker-1', 'batch/worker-2']);
    // Assess
    expect(latencies.samplesMs()).toEqual([210_000]);
  });

  it('keeps the first mark of a pod marked again, and ignores pods never marked', () => {
    // Prepare
    const latencies = new DecisionLatencies();
    latencies.marked(10, ['shop/web-1']);
    latencies.marked(12, ['shop/web-1']);
    // Act
    latencies.placed(13, ['shop/web-1', 'kube-system/coredns-1']);
    // Assess
    expect(latencies.samplesMs()).toEqual([3000]);
  });

  it('counts a pod placed in the second it was marked as no wait, and a pod once only', () => {
    // Prepare
    const latencies = new DecisionLatencies();
    latencies.marked(20, ['shop/cache-1']);
    latencies.placed(20, ['shop/cache-1']);
    // Act
    latencies.marked(25, ['shop/cache-1']);
    latencies.placed(26, ['shop/cache-1']);
    // Assess
    expect(latencies.samplesMs()).toEqual([0]);
  });
});
