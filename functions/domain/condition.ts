/** Status conditions as Kubernetes objects report them (`type`, `status`, `reason`, `message`). */

export interface Condition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason?: string;
  readonly message?: string;
  readonly lastTransitionTime?: string;
}

export function conditionOf(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/**
 * The Ready condition of a NodePool or EC2NodeClass that is not True, as Karpenter launches only
 * from ready ones. An object without a Ready condition (hand-written, never reconciled) counts as
 * ready: there is nothing to wait for.
 */
export function reportedNotReady(
  status: { readonly conditions?: readonly Condition[] } | undefined,
): Condition | undefined {
  const ready = conditionOf(status?.conditions, 'Ready');
  return ready !== undefined && ready.status !== 'True' ? ready : undefined;
}
