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

/** A NodePool or EC2NodeClass its controller has reported not Ready; no status means not judged yet. */
export function reportedNotReady(
  status: { readonly conditions?: readonly Condition[] } | undefined,
): Condition | undefined {
  const ready = conditionOf(status?.conditions, 'Ready');
  return ready?.status === 'False' ? ready : undefined;
}
