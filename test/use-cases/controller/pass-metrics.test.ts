/**
 * A pass's decisions counted as Karpenter v1.14.1 counts them, under its metric names and labels
 * (core: pkg/metrics/metrics.go, pkg/controllers/disruption/metrics.go and queue.go,
 * pkg/controllers/disruption/balanced.go, operatorpkg's status controller; docs/metrics.md).
 */
import { describe, expect, it } from 'vitest';
import type { DisruptionDecision } from '../../../functions/domain/disruption/disruption-plan-types.ts';
import { statusCategoryOf } from '../../../functions/domain/interruption/instance-status.ts';
import type { Decision } from '../../../functions/ports/decisions.ts';
import type { MetricSample } from '../../../functions/ports/metrics.ts';
import { passMetrics } from '../../../functions/use-cases/controller/pass-metrics.ts';
import {
  type DisruptionCommands,
  emptyPassReport,
} from '../../../functions/use-cases/controller/pass-report.ts';
import type { InterruptionOutcome } from '../../../functions/use-cases/interruption/handle-interruption.ts';

const AT = '2026-11-24T09:00:00.000Z';

function aDecision(kind: Decision['kind'], more: Partial<Decision> = {}): Decision {
  return {
    kind,
    time: AT,
    nodeClaim: 'default-a1b2c',
    nodePool: 'default',
    instanceType: 'm5.large',
    zone: 'us-east-1a',
    capacityType: 'spot',
    pricePerHour: 0.096,
    reason: 'test',
    nodeClass: 'default',
    ...more,
  };
}

function aCommand(more: Partial<DisruptionDecision>): DisruptionDecision {
  return {
    method: 'emptiness',
    reason: 'Empty',
    nodes: ['ip-10-0-1-1'],
    replacements: [],
    savingsPerHour: 0.096,
    message: 'test',
    budgets: [{ nodePool: 'default', nodes: 1, allowed: 1 }],
    ...more,
  };
}

const NO_COMMANDS: DisruptionCommands = { carriedOut: [], validating: [] };

const metricsOf = (decisions: Decision[], disruption = NO_COMMANDS) =>
  passMetrics({ ...emptyPassReport(AT), ran: true, decisions, disruption });

describe('the pass under Karpenter’s metric names', () => {
  it.each<{ name: string; decisions: Decision[]; metric: string; labels: object; value: number }>([
    {
      name: 'claims made for pending pods, launched or refused, are created as provisioned',
      decisions: [
        aDecision('Launched', { createdFor: 'provisioned' }),
        aDecision('LaunchFailed', {
          createdFor: 'provisioned',
          disruptedFor: 'insufficient_capacity',
        }),
      ],
      metric: 'karpenter_nodeclaims_created_total',
      labels: { reason: 'provisioned', nodepool: 'default', min_values_relaxed: 'false' },
      value: 2,
    },
    {
      name: 'a replacement is created for the reason of the nodes it replaces',
      decisions: [aDecision('Launched', { createdFor: 'drifted' })],
      metric: 'karpenter_nodeclaims_created_total',
      labels: { reason: 'drifted', nodepool: 'default', min_values_relaxed: 'false' },
      value: 1,
    },
    {
      name: 'a launch refused for capacity disrupts its claim as insufficient_capacity',
      decisions: [
        aDecision('LaunchFailed', {
          createdFor: 'provisioned',
          disruptedFor: 'insufficient_capacity',
        }),
      ],
      metric: 'karpenter_nodeclaims_disrupted_total',
      labels: { reason: 'insufficient_capacity', nodepool: 'default', capacity_type: 'spot' },
      value: 1,
    },
    {
      name: 'a claim marked for deletion is disrupted for its reason',
      decisions: [aDecision('Disrupting', { disruptedFor: 'expired', capacityType: 'on-demand' })],
      metric: 'karpenter_nodeclaims_disrupted_total',
      labels: { reason: 'expired', nodepool: 'default', capacity_type: 'on-demand' },
      value: 1,
    },
    {
      name: 'a registration creates a node in its pool and zone',
      decisions: [aDecision('Registered'), aDecision('Registered', { zone: 'us-east-1b' })],
      metric: 'karpenter_nodes_created_total',
      labels: { nodepool: 'default', zone: 'us-east-1b' },
      value: 1,
    },
    {
      name: 'a termination ends the claim with its capacity type and zone',
      decisions: [aDecision('Terminated', { nodeName: 'ip-10-0-1-1' }), aDecision('Terminated')],
      metric: 'karpenter_nodeclaims_terminated_total',
      labels: { nodepool: 'default', capacity_type: 'spot', zone: 'us-east-1a' },
      value: 2,
    },
    {
      name: 'a termination ends the node only when the claim had one',
      decisions: [aDecision('Terminated', { nodeName: 'ip-10-0-1-1' }), aDecision('Terminated')],
      metric: 'karpenter_nodes_terminated_total',
      labels: { nodepool: 'default', zone: 'us-east-1a' },
      value: 1,
    },
    ...(['Launched', 'Registered', 'Initialized'] as const).map((type) => ({
      name: `${type} is a NodeClaim condition turning True`,
      decisions: [aDecision(type)],
      metric: 'operator_nodeclaim_status_condition_transitions_total',
      labels: {
        type,
        status: 'True',
        reason: type,
        karpenter_sh_nodepool: 'default',
        karpenter_k8s_aws_ec2nodeclass: 'default',
      },
      value: 1,
    })),
  ])('$name', ({ decisions, metric, labels, value }) => {
    // Prepare: the decisions above. Act
    const samples = metricsOf(decisions).filter((s) => s.name === metric);
    // Assess
    expect(samples).toContainEqual({ name: metric, unit: 'Count', labels, value });
  });

  it('counts neither a resumed launch as created nor an orphan instance as a claim terminated', () => {
    // Prepare
    const decisions = [
      aDecision('Launched', { reason: 'resumed launch' }),
      aDecision('Terminated', { nodeClaim: '' }),
    ];
    // Act
    const names = metricsOf(decisions).map((s) => s.name);
    // Assess
    expect(names).not.toContain('karpenter_nodeclaims_created_total');
    expect(names).not.toContain('karpenter_nodeclaims_terminated_total');
  });

  it.each<{ name: string; command: Partial<DisruptionDecision>; labels: object }>([
    {
      name: 'emptiness deletes as empty consolidation',
      command: {},
      labels: { decision: 'delete', reason: 'empty', consolidation_type: 'empty' },
    },
    {
      name: 'a single-node consolidation replaces',
      command: {
        method: 'consolidation-replace',
        reason: 'Underutilized',
        replacements: [{} as DisruptionDecision['replacements'][number]],
      },
      labels: { decision: 'replace', reason: 'underutilized', consolidation_type: 'single' },
    },
    {
      name: 'a multi-node consolidation deletes',
      command: { method: 'consolidation-multi', reason: 'Underutilized' },
      labels: { decision: 'delete', reason: 'underutilized', consolidation_type: 'multi' },
    },
    {
      name: 'drift leaves consolidation_type empty, so it is no dimension',
      command: { method: 'drift', reason: 'Drifted' },
      labels: { decision: 'delete', reason: 'drifted' },
    },
  ])('a voluntary command started: $name', ({ command, labels }) => {
    // Prepare
    const carriedOut = [aCommand(command)];
    // Act
    const samples = metricsOf([], { carriedOut, validating: [] });
    // Assess
    expect(samples).toEqual([
      { name: 'karpenter_voluntary_disruption_decisions_total', unit: 'Count', labels, value: 1 },
      {
        name: 'karpenter_voluntary_disruption_decisions_by_nodepool_total',
        unit: 'Count',
        labels: { nodepool: 'default', ...labels },
        value: 1,
      },
    ]);
  });

  it('leaves expiration and repair out of voluntary decisions, as Karpenter’s own controllers take them', () => {
    // Prepare
    const carriedOut = [
      aCommand({ method: 'expiration', reason: 'Expired' }),
      aCommand({ method: 'repair', reason: 'Unhealthy' }),
    ];
    // Act
    const samples = metricsOf([], { carriedOut, validating: [] });
    // Assess
    expect(samples).toEqual([]);
  });

  it('counts a Balanced pool’s approved move and observes its score', () => {
    // Prepare
    const validating = [
      aCommand({
        method: 'consolidation-delete',
        reason: 'Underutilized',
        scores: [
          {
            nodePool: 'default',
            nodes: ['ip-10-0-1-1'],
            message: 'approved',
            savingsFraction: 0.5,
            disruptionFraction: 0.25,
            k: 2,
          },
        ],
      }),
    ];
    // Act
    const samples = metricsOf([], { carriedOut: [], validating });
    // Assess
    const labels = { decision: 'approved', nodepool: 'default', policy: 'Balanced' };
    expect(samples).toEqual([
      { name: 'karpenter_consolidation_moves_total', unit: 'Count', labels, value: 1 },
      { name: 'karpenter_consolidation_score', unit: 'None', labels, value: 2 },
    ]);
  });

  it('observes each pod that started since the pass before, without labels', () => {
    // Prepare
    const podStartups = { startup: [95, 12.5], bound: [55] };

    // Act
    const samples = passMetrics({ ...emptyPassReport(AT), ran: true, podStartups });

    // Assess
    expect(samples).toEqual([
      { name: 'karpenter_pods_startup_duration_seconds', unit: 'Seconds', labels: {}, value: 95 },
      { name: 'karpenter_pods_startup_duration_seconds', unit: 'Seconds', labels: {}, value: 12.5 },
      { name: 'karpenter_pods_bound_duration_seconds', unit: 'Seconds', labels: {}, value: 55 },
    ]);
  });

  it.each<{ name: string; check: InterruptionOutcome; samples: MetricSample[] }>([
    {
      name: 'a failed system check first found counts its category unhealthy and disrupts the claim',
      check: aStatusCheck('SystemStatusFailed', { duplicate: false }),
      samples: [
        {
          name: 'karpenter_interruption_instance_status_unhealthy_total',
          unit: 'Count',
          labels: { category: 'SystemStatus' },
          value: 1,
        },
        {
          name: 'karpenter_nodeclaims_disrupted_total',
          unit: 'Count',
          labels: { reason: 'system_status', nodepool: 'default', capacity_type: 'spot' },
          value: 1,
        },
      ],
    },
    {
      name: 'the same check seen again by a later pass counts nothing more',
      check: aStatusCheck('InstanceStatusFailed', { duplicate: true }),
      samples: [],
    },
    {
      name: 'a failing instance that is no claim’s counts nothing',
      check: {
        ...aStatusCheck('ScheduledEvent', { duplicate: false }),
        instances: [{ instanceId: 'i-0elsewhere', action: 'NoClaim' }],
      },
      samples: [],
    },
  ])('$name', ({ check, samples }) => {
    // Prepare
    const report = { ...emptyPassReport(AT), ran: true, statusChecks: [check] };
    // Act
    const counted = passMetrics(report);
    // Assess
    expect(counted).toEqual(samples);
  });
});

function aStatusCheck(
  kind: InterruptionOutcome['kind'],
  more: Pick<InterruptionOutcome, 'duplicate'>,
): InterruptionOutcome {
  const instance = {
    instanceId: 'i-0sick',
    claim: 'default-a1b2c',
    action: 'CordonAndDrain' as const,
    nodePool: 'default',
    capacityType: 'spot' as const,
  };
  const event = `instance-status/i-0sick/${statusCategoryOf(kind)}`;
  return { event, kind, instances: [instance], ...more };
}
