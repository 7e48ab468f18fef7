/**
 * `nodesmith simulate --deployed --scenario takeover --adopt-karpenter-nodes`: the stack
 * synthesized to adopt, with deploy/rbac-adoption.yaml applied beside deploy/rbac.yaml. Karpenter's
 * nodes become Nodesmith's and leave only through a drain, by the controller's own role and
 * group; the managed node group's instances are never touched. The run wakes through the audit
 * log's subscription (`--wake audit`), the path the other deployed runs leave aside.
 */
import { describe, expect, it } from 'vitest';
import { cleanDeployedRun } from '../support/simulate-in-process.ts';

const DEPLOYED_RUN_MS = 600_000;
const OWNERSHIP = 'no instance Nodesmith did not launch terminated without a drain';

describe('nodesmith simulate --deployed --scenario takeover --adopt-karpenter-nodes', () => {
  it(
    "adopts Karpenter's nodes and drains each one it removes, nothing refused",
    async () => {
      // Act
      const summary = await cleanDeployedRun(
        'takeover',
        '--pods',
        '20',
        '--adopt-karpenter-nodes',
        '--wake',
        'audit',
      );
      // Assess: three Karpenter nodes adopted, two node-group nodes left alone, whatever left drained.
      const ownership = summary.invariants.find((i) => i.name === OWNERSHIP);
      expect(ownership?.detail).toMatch(
        /^5 instances it did not launch \(3 adopted\); [1-3] of them terminated, each after a drain$/,
      );
      expect(summary.wakes.admission).toBe(0);
    },
    DEPLOYED_RUN_MS,
  );
});
