/**
 * `nodesmith simulate --deployed --scenario consolidation`: after the scale-down, the scheduled
 * rule's passes consolidate the cluster as deployed — the controller's bundle evicting through
 * its RBAC group, terminating with its role — within the budgets, nothing refused.
 */
import { describe, expect, it } from 'vitest';
import { cleanDeployedRun } from '../support/simulate-in-process.ts';

const DEPLOYED_RUN_MS = 600_000;

describe('nodesmith simulate --deployed --scenario consolidation', () => {
  it(
    'consolidates the scaled-down cluster through drains, every invariant held',
    async () => {
      // Act
      const summary = await cleanDeployedRun('consolidation', '--pods', '30');
      // Assess
      expect(summary.nodes.terminated).toBeGreaterThan(0);
      expect(summary.aws?.calls['ec2:TerminateInstances']).toBe(summary.nodes.terminated);
    },
    DEPLOYED_RUN_MS,
  );
});
