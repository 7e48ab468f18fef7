/**
 * `nodesmith simulate --deployed --scenario spot-interruption`: EC2's two-minute warnings reach
 * the interruption function's bundle only through the template's EventBridge rule and its queue's
 * event source mapping; the interrupted nodes are replaced and drained, and their instances
 * terminated by the controller's role, as IAM allows it on instances tagged as Nodesmith's.
 */
import { describe, expect, it } from 'vitest';
import type { SimulationSummary } from '../../simulator/run/simulation-report.ts';
import { simulate } from '../support/simulate-in-process.ts';

const DEPLOYED_RUN_MS = 240_000;

describe('nodesmith simulate --deployed --scenario spot-interruption', () => {
  it(
    'replaces the interrupted nodes through the template’s rule and queue, every invariant held',
    async () => {
      // Act
      const result = await simulate(
        '--deployed',
        '--scenario',
        'spot-interruption',
        '--pods',
        '20',
        '-o',
        'json',
      );
      // Assess
      expect(result.status).toBe(0);
      const summary = JSON.parse(result.stdout) as SimulationSummary;
      expect(summary.pods).toEqual({ total: 20, running: 20, pending: 0 });
      expect(summary.invariants.filter((i) => !i.held)).toEqual([]);
      expect(summary.aws?.denied).toEqual([]);
      expect(summary.nodes.terminated).toBeGreaterThan(0);
      expect(summary.aws?.calls['ec2:TerminateInstances']).toBe(summary.nodes.terminated);
      expect(summary.nodes.launched).toBe(summary.nodes.running + summary.nodes.terminated);
    },
    DEPLOYED_RUN_MS,
  );
});
