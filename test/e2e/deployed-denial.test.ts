/**
 * `nodesmith simulate --deployed --deny ec2:CreateFleet`: with the action removed from every
 * role, IAM refuses the controller's launches as AWS would, the pods stay pending, the denial is
 * named with the function and action, and the exit status is 1. The limits scenario, the
 * shortest: a run where nothing ever settles lasts the scenario's whole time. A file of its own,
 * so it runs beside the others.
 */
import { describe, expect, it } from 'vitest';
import type { SimulationSummary } from '../../simulator/run/simulation-report.ts';
import { simulate } from '../support/simulate-in-process.ts';

const DEPLOYED_RUN_MS = 240_000;

describe('nodesmith simulate --deployed --deny', () => {
  it(
    'leaves the pods pending and names the denial when ec2:CreateFleet is removed from every role',
    async () => {
      // Act
      const result = await simulate(
        '--deployed',
        '--scenario',
        'limits',
        '--pods',
        '10',
        '--deny',
        'ec2:CreateFleet',
        '-o',
        'json',
      );
      // Assess
      expect(result.status).toBe(1);
      const summary = JSON.parse(result.stdout) as SimulationSummary;
      expect(summary.pods.running).toBe(0);
      expect(summary.pods.pending).toBe(summary.pods.total);
      expect(summary.nodes.launched).toBe(0);
      const denied = summary.aws?.denied ?? [];
      expect(denied.length).toBeGreaterThan(0);
      expect(
        new Set(denied.map((d) => `${d.function?.replace(/[0-9A-F]{8}$/, '')} ${d.action}`)),
      ).toEqual(new Set(['Controller ec2:CreateFleet']));
      const refused = summary.invariants.find((i) => i.name === 'no call refused');
      expect(refused?.held).toBe(false);
      expect(refused?.detail).toContain('was denied ec2:CreateFleet');
    },
    DEPLOYED_RUN_MS,
  );
});
