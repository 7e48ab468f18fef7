/** The Decision published for a step of a claim's life (docs/decisions.md). */
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type { Decision, DecisionKind } from '../../ports/decisions.ts';

/** What Karpenter's metrics label a decision by, where the claim alone does not say it. */
export type DecisionLabels = Pick<Decision, 'createdFor' | 'disruptedFor'>;

export function decisionOf(
  kind: DecisionKind,
  claim: NodeClaimRecord,
  now: Date,
  reason: string,
  labels: DecisionLabels = {},
): Decision {
  const disruptedFor =
    kind === 'Disrupting' && claim.disruption !== undefined
      ? snakeCase(claim.disruption.reason)
      : labels.disruptedFor;
  return {
    kind,
    time: now.toISOString(),
    nodeClaim: claim.name,
    nodePool: claim.nodePool,
    ...(claim.instanceId === undefined ? {} : { instanceId: claim.instanceId }),
    ...(claim.nodeName === undefined ? {} : { nodeName: claim.nodeName }),
    instanceType: claim.offering.instanceType,
    zone: claim.offering.zone,
    capacityType: claim.offering.capacityType,
    pricePerHour: claim.offering.pricePerHour,
    reason,
    nodeClass: claim.nodeClass,
    ...(labels.createdFor === undefined ? {} : { createdFor: labels.createdFor }),
    ...(disruptedFor === undefined ? {} : { disruptedFor }),
  };
}

/**
 * `NodePoolDeleted` → `node_pool_deleted`: Karpenter's `pretty.ToSnakeCase`
 * (kubernetes-sigs/karpenter pkg/utils/pretty/pretty.go), which labels its disruption reasons.
 */
export function snakeCase(reason: string): string {
  return reason
    .replace(/(.)([A-Z][a-z]+)/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase();
}

/**
 * `3 pods: default/web-1, default/web-2, default/web-3`, at most five named; a claim made for no
 * pod is a static NodePool's.
 */
export function podsReason(pods: readonly string[]): string {
  if (pods.length === 0) return "to keep its static NodePool's replicas";
  const named = pods.slice(0, 5).join(', ');
  const more = pods.length > 5 ? ` and ${pods.length - 5} more` : '';
  return `${pods.length} pod${pods.length === 1 ? '' : 's'} unschedulable: ${named}${more}`;
}
