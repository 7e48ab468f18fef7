/**
 * `nodesmith simulate --deployed --scenario consolidation`: after the scale-down, the scheduled
 * rule's passes consolidate the cluster as deployed — the controller's bundle evicting through
 * its RBAC group, terminating with its role — within the budgets, nothing refused.
 */
import { describe, expect, it } from 'vitest';
import type { SimulationSummary } from '../../simulator/run/simulation-report.ts';
import { simulate } from '../support/simulate-in-process.ts';

const DEPLOYED_RUN_MS = 600_000;

describe('nodesmith simulate --deployed --scenario consolidation', () => {
  it(
    'consolidates the scaled-down cluster through drains, every invariant held',
    async () => {
      // Act
      const result = await simulate(
        '--deployed',
        '--scenario',
        'consolidation',
        '--pods',
        '30',
        '-o',
        'json',
      );
      // Assess
      expect(result.status).toBe(0);
      const summary = JSON.parse(result.stdout) as SimulationSummary;
      expect(summary.pods.pending).toBe(0);
      expect(summary.invariants.filter((i) => !i.held)).toEqual([]);
      expect(summary.aws?.denied).toEqual([]);
      expect(summary.kubernetes?.denied).toEqual([]);
      expect(summary.nodes.terminated).toBeGreaterThan(0);
      expect(summary.aws?.calls['ec2:TerminateInstances']).toBe(summary.nodes.terminated);
    },
    DEPLOYED_RUN_MS,
  );
});
