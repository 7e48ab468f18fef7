/**
 * Pods that cannot be placed, grouped by reason: pods of one workload usually fail for the same
 * reason, so `plan` and `simulate` show each reason once with the pods it holds back.
 */

export interface UnschedulablePod {
  readonly pod: string;
  readonly reason: string;
}

export interface UnschedulableGroup {
  readonly reason: string;
  readonly pods: readonly string[];
}

/** Groups in the order their first pod came. */
export function groupByReason(unschedulable: readonly UnschedulablePod[]): UnschedulableGroup[] {
  const byReason = new Map<string, string[]>();
  for (const u of unschedulable) byReason.set(u.reason, [...(byReason.get(u.reason) ?? []), u.pod]);
  return [...byReason].map(([reason, pods]) => ({ reason, pods }));
}
