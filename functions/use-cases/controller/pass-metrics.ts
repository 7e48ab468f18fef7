/**
 * What a controller pass did, as Karpenter's Prometheus metrics count it (docs/metrics.md): the
 * same names and labels, counted where Karpenter's controllers count them.
 */
import { KarpenterMetric } from '../../contract/metric-names.ts';
import { score } from '../../domain/disruption/balanced-score.ts';
import type {
  DisruptionDecision,
  DisruptionMethod,
} from '../../domain/disruption/disruption-plan-types.ts';
import { statusCategoryOf } from '../../domain/interruption/instance-status.ts';
import type { PodStartups } from '../../domain/pod-startup.ts';
import type { Decision } from '../../ports/decisions.ts';
import type { MetricSample } from '../../ports/metrics.ts';
import type { InterruptionOutcome } from '../interruption/handle-interruption.ts';
import { disruptedByMessage, messageType } from '../interruption/interruption-metrics.ts';
import { counted, observed } from '../metric-samples.ts';
import type { PassReport } from './pass-report.ts';

export function passMetrics(report: PassReport): MetricSample[] {
  const { decisions, disruption } = report;
  return [
    ...claimMetrics(decisions),
    ...conditionTransitions(decisions),
    ...voluntaryDecisions(disruption.carriedOut),
    ...consolidationMoves(disruption.validating),
    ...statusCheckMetrics(report.statusChecks ?? []),
    ...podStartupMetrics(report.podStartups),
  ];
}

const of = (decisions: readonly Decision[], ...kinds: Decision['kind'][]) =>
  decisions.filter((d) => kinds.includes(d.kind) && d.nodeClaim !== '');

/** core: provisioning/provisioner.go, lifecycle/registration.go, lifecycle/controller.go, node/termination/controller.go. */
function claimMetrics(decisions: readonly Decision[]): MetricSample[] {
  const created = of(decisions, 'Launched', 'LaunchFailed').filter((d) => d.createdFor);
  const disrupted = decisions.filter((d) => d.disruptedFor !== undefined);
  const terminated = of(decisions, 'Terminated');
  return [
    ...counted(
      KarpenterMetric.nodeClaimsCreated,
      // Nodesmith never relaxes a requirement's minValues (no BestEffort policy yet).
      created.map((d) => ({
        reason: d.createdFor ?? '',
        nodepool: d.nodePool,
        min_values_relaxed: 'false',
      })),
    ),
    ...counted(
      KarpenterMetric.nodeClaimsDisrupted,
      disrupted.map((d) => ({
        reason: d.disruptedFor ?? '',
        nodepool: d.nodePool,
        capacity_type: d.capacityType,
      })),
    ),
    ...counted(
      KarpenterMetric.nodeClaimsTerminated,
      terminated.map((d) => ({
        nodepool: d.nodePool,
        capacity_type: d.capacityType,
        zone: d.zone,
      })),
    ),
    ...counted(
      KarpenterMetric.nodesCreated,
      of(decisions, 'Registered').map((d) => ({ nodepool: d.nodePool, zone: d.zone })),
    ),
    ...counted(
      KarpenterMetric.nodesTerminated,
      terminated
        .filter((d) => d.nodeName !== undefined)
        .map((d) => ({ nodepool: d.nodePool, zone: d.zone })),
    ),
  ];
}

/**
 * The NodeClaim conditions turning True, labelled as operatorpkg's status controller labels them
 * with the NodeClaim labels Karpenter asks for (core: pkg/controllers/controllers.go).
 */
function conditionTransitions(decisions: readonly Decision[]): MetricSample[] {
  return counted(
    KarpenterMetric.nodeClaimConditionTransitions,
    of(decisions, 'Launched', 'Registered', 'Initialized').map((d) => ({
      type: d.kind,
      status: 'True',
      reason: d.kind,
      karpenter_sh_nodepool: d.nodePool,
      karpenter_k8s_aws_ec2nodeclass: d.nodeClass ?? '',
    })),
  );
}

/** Karpenter's voluntary methods and their `consolidation_type` (core: disruption/*.go). */
const CONSOLIDATION_TYPE: Partial<Record<DisruptionMethod, string>> = {
  emptiness: 'empty',
  drift: '',
  'consolidation-multi': 'multi',
  'consolidation-delete': 'single',
  'consolidation-replace': 'single',
};

/** Counted as a command starts (core: disruption/queue.go StartCommand). */
function voluntaryDecisions(carriedOut: readonly DisruptionDecision[]): MetricSample[] {
  const voluntary = carriedOut.filter((d) => CONSOLIDATION_TYPE[d.method] !== undefined);
  const labelled = voluntary.map((d) => ({
    decision: d.replacements.length > 0 ? 'replace' : 'delete',
    reason: d.reason.toLowerCase(),
    consolidation_type: CONSOLIDATION_TYPE[d.method] ?? '',
    pools: [...new Set(d.budgets.map((b) => b.nodePool))],
  }));
  return [
    ...counted(
      KarpenterMetric.disruptionDecisions,
      labelled.map(({ pools: _, ...labels }) => labels),
    ),
    ...counted(
      KarpenterMetric.disruptionDecisionsByNodePool,
      labelled.flatMap(({ pools, ...labels }) =>
        pools.map((nodepool) => ({ nodepool, ...labels })),
      ),
    ),
  ];
}

/**
 * EC2's failing status checks (aws: pkg/controllers/interruption/instancestatus_controller.go):
 * an instance and category counted unhealthy once, the first pass that finds its claim (a later
 * pass's is a duplicate, as Karpenter's `seen` set keeps it), and the claims it marked disrupted
 * under the message type, as the interruption queue's are.
 */
function statusCheckMetrics(outcomes: readonly InterruptionOutcome[]): MetricSample[] {
  const first = outcomes.filter((o) => !o.duplicate && o.instances.some((i) => i.claim));
  return [
    ...counted(
      KarpenterMetric.interruptionInstanceStatusUnhealthy,
      first.map((o) => ({ category: statusCategoryOf(o.kind) ?? '' })),
    ),
    ...counted(
      KarpenterMetric.nodeClaimsDisrupted,
      outcomes.flatMap((o) => disruptedByMessage(messageType(o), o)),
    ),
  ];
}

/**
 * `Balanced` pools' consolidation moves approved, each with its score (core: disruption/balanced.go).
 * Only scored pools' moves are counted: a move of another policy's pool carries no score here.
 */
function consolidationMoves(validating: readonly DisruptionDecision[]): MetricSample[] {
  const scores = validating.flatMap((d) => d.scores ?? []);
  const labels = (nodepool: string) => ({ decision: 'approved', nodepool, policy: 'Balanced' });
  return [
    ...counted(
      KarpenterMetric.consolidationMoves,
      scores.map((s) => labels(s.nodePool)),
    ),
    ...observed(
      KarpenterMetric.consolidationScore,
      scores.map((s) => ({ labels: labels(s.nodePool), value: score(s) })),
      'None',
    ),
  ];
}

/**
 * Each pod's startup and binding, from its creation, as Karpenter's summary and histogram
 * observe them, without labels (core: pkg/controllers/metrics/pod/controller.go).
 */
function podStartupMetrics(startups: PodStartups | undefined): MetricSample[] {
  const unlabelled = (seconds: readonly number[]) =>
    seconds.map((value) => ({ labels: {}, value }));
  return [
    ...observed(KarpenterMetric.podStartupDuration, unlabelled(startups?.startup ?? [])),
    ...observed(KarpenterMetric.podBoundDuration, unlabelled(startups?.bound ?? [])),
  ];
}
