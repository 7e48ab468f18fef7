/**
 * The CloudWatch metrics Nodesmith emits under Karpenter's Prometheus names (docs/metrics.md):
 * the functions emit them, the stack's dashboard and alarms read them. A Prometheus counter is a
 * `Count` metric of the same name, a histogram or summary in seconds a `Seconds` metric whose
 * data points are its observations; labels are dimensions of the same names.
 */
export const METRICS_NAMESPACE = 'Nodesmith';

/** Every metric also carries this dimension, the emitting function; alone, it sums the labels. */
export const SERVICE_DIMENSION = 'service';

/**
 * The NodePool's dimension, Karpenter's `nodepool` label (core: pkg/metrics/constants.go), on
 * Karpenter's metrics and Nodesmith's own per-pool `Nodes` and `CostPerHour` alike.
 */
export const NODEPOOL_DIMENSION = 'nodepool';

export const KarpenterMetric = {
  /** core: pkg/metrics/metrics.go. */
  nodeClaimsCreated: 'karpenter_nodeclaims_created_total',
  nodeClaimsTerminated: 'karpenter_nodeclaims_terminated_total',
  nodeClaimsDisrupted: 'karpenter_nodeclaims_disrupted_total',
  nodesCreated: 'karpenter_nodes_created_total',
  nodesTerminated: 'karpenter_nodes_terminated_total',
  /** operatorpkg's status controller for NodeClaims (core: pkg/controllers/controllers.go). */
  nodeClaimConditionTransitions: 'operator_nodeclaim_status_condition_transitions_total',
  /** core: pkg/controllers/disruption/metrics.go. */
  disruptionDecisions: 'karpenter_voluntary_disruption_decisions_total',
  disruptionDecisionsByNodePool: 'karpenter_voluntary_disruption_decisions_by_nodepool_total',
  consolidationMoves: 'karpenter_consolidation_moves_total',
  consolidationScore: 'karpenter_consolidation_score',
  /** core: pkg/controllers/metrics/pod/controller.go. */
  podStartupDuration: 'karpenter_pods_startup_duration_seconds',
  podBoundDuration: 'karpenter_pods_bound_duration_seconds',
  /** aws/karpenter-provider-aws: pkg/controllers/interruption/metrics.go. */
  interruptionReceivedMessages: 'karpenter_interruption_received_messages_total',
  interruptionDeletedMessages: 'karpenter_interruption_deleted_messages_total',
  interruptionMessageQueueDuration: 'karpenter_interruption_message_queue_duration_seconds',
  interruptionInstanceStatusUnhealthy: 'karpenter_interruption_instance_status_unhealthy_total',
} as const;

export type KarpenterMetricName = (typeof KarpenterMetric)[keyof typeof KarpenterMetric];
