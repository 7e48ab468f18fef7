/**
 * `kubectl delete node` end to end in the simulated world: the burst has settled with web behind
 * a PodDisruptionBudget, then someone deletes the node running the most pods. Read from the
 * report a user reads: the finalizer holds the Node, its pods are evicted within the budget and
 * run again elsewhere, and the instance is terminated only after the drain.
 */
import { describe, expect, it } from 'vitest';
import { TERMINATION_FINALIZER } from '../../functions/domain/termination/finalizer.ts';
import { runSimulation } from '../../simulator/run/run-simulation.ts';
import { burstScenario } from '../../simulator/scenarios/burst.ts';
import type { Scenario } from '../../simulator/scenarios/scenario.ts';

/** The burst has settled by then: every pod runs. */
const AFTER_BURST = 240;

function nodeDeletionScenario(seed: number, pods: number): Scenario {
  const burst = burstScenario(seed, pods);
  return {
    ...burst,
    name: 'node-deletion',
    cluster: [
      {
        resource: 'poddisruptionbudgets',
        object: {
          apiVersion: 'policy/v1',
          kind: 'PodDisruptionBudget',
          metadata: { name: 'web', namespace: 'shop' },
          spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } },
        },
      },
    ],
    steps: [
      ...burst.steps,
      { at: AFTER_BURST, description: 'an operator deletes a node', pods: [], deleteNodes: 1 },
    ],
    maxSeconds: 1200,
    quietSeconds: 120,
  };
}

describe('kubectl delete node in the simulated world', () => {
  it('holds the node while its pods are evicted within the budget, then terminates it', async () => {
    const report = await runSimulation(nodeDeletionScenario(7, 60), { seed: 7 });
    for (const invariant of report.summary.invariants) {
      expect(invariant.held, `${invariant.name}: ${invariant.detail}`).toBe(true);
    }
    expect(report.summary.pods).toEqual({ total: 60, running: 60, pending: 0 });

    const deleted = report.timeline.find((l) => l.message.startsWith('kubectl delete node'));
    expect(deleted?.t).toBe(AFTER_BURST);
    expect(deleted?.message).toMatch(new RegExp(`: held by ${TERMINATION_FINALIZER}$`));
    const node = deleted?.message.split(' ')[3]?.replace(/:$/, '') ?? '';
    const marked = report.decisions.find(
      (d) => d.kind === 'Disrupting' && d.reason === `NodeDeleted: node ${node} was deleted`,
    );
    const claim = marked?.nodeClaim ?? '';
    expect(marked?.t).toBeGreaterThanOrEqual(AFTER_BURST);

    const lines = report.timeline.filter((l) => l.message.split(' ')[1] === claim);
    const drains = lines.filter((l) => l.message.startsWith(`drain ${claim}`));
    const terminating = lines.find((l) => l.message.startsWith(`terminating ${claim}`));
    const terminated = lines.find((l) => l.message.startsWith(`terminated ${claim}`));
    // The budget refused some evictions, none was forced, and the instance went after the drain.
    expect(drains.some((l) => !l.message.includes('refused 0'))).toBe(true);
    expect(drains.filter((l) => !l.message.includes('deleted 0'))).toEqual([]);
    expect(terminating?.t).toBeGreaterThan(Math.max(...drains.map((l) => l.t)));
    expect(terminated?.t).toBeGreaterThan(terminating?.t ?? Number.POSITIVE_INFINITY);
    expect(report.summary.leakedInstances).toBe(0);
  }, 180_000);
});
