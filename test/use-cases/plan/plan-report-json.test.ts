import { describe, expect, it } from 'vitest';
import type { PlanReport, PlanReportClaim } from '../../../functions/use-cases/plan/plan-report.ts';
import { planReportJson } from '../../../functions/use-cases/plan/plan-report-json.ts';

function claim(name: string, options: readonly string[], extra: Partial<PlanReportClaim> = {}) {
  return {
    name,
    nodePool: 'default',
    instanceType: options[0] ?? '',
    zone: 'us-east-1a',
    capacityType: 'on-demand',
    pricePerHour: 0.0416,
    instanceTypeOptions: options,
    labels: { 'karpenter.sh/nodepool': 'default', team: 'café ☕ "quoted" \\ \u0001' },
    taints: [],
    pods: ['default/web-0', 'default/web-1'],
    ...extra,
  } as PlanReportClaim;
}

function text(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

describe('the plan report as JSON', () => {
  it('writes what JSON.stringify writes, claims sharing an option list or not', () => {
    // Prepare
    const shared = ['t3.medium', 't3a.medium', 'm6g.large'];
    const report: PlanReport = {
      nodeClaims: [
        claim('default-0', shared),
        claim('default-1', shared, {
          taints: [{ key: 'dedicated', effect: 'NoSchedule' }],
          zone: undefined as unknown as string,
        }),
        claim('default-2', ['c7g.2xlarge'], { pods: [] }),
      ],
      existingNodes: [{ name: 'node-a', pods: ['default/db-0'] }],
      unschedulable: [{ pod: 'default/huge', reason: 'nodepool "default": too big' }],
      summary: { pendingPods: 6, newNodeClaims: 3, pricePerHour: 0.1248, priceSource: 'us-east-1' },
    };

    // Act
    const json = planReportJson(report);

    // Assess
    expect(text(json)).toBe(JSON.stringify(report));
  });

  it('writes an empty plan, and a plan longer than a run of text, as JSON.stringify does', () => {
    // Prepare
    const empty: PlanReport = {
      nodeClaims: [],
      existingNodes: [],
      unschedulable: [],
      summary: { pendingPods: 0, newNodeClaims: 0, pricePerHour: 0, priceSource: 'us-east-1' },
    };
    const pods = Array.from({ length: 5000 }, (_, i) => `default/pod-${i}`);
    const large: PlanReport = {
      ...empty,
      nodeClaims: [claim('default-0', ['m7g.large'], { pods })],
    };

    // Act
    const written = [planReportJson(empty), planReportJson(large)].map(text);

    // Assess
    expect(written).toEqual([JSON.stringify(empty), JSON.stringify(large)]);
  });
});
