/**
 * Why pods are still pending at the end of a run: the reason the last pass that looked at each
 * pod gave for not placing it, grouped by reason as `plan` groups its unschedulable pods.
 */
import type { Pod } from '../../functions/domain/pod.ts';
import type { PassReport } from '../../functions/use-cases/controller/pass-report.ts';
import {
  groupByReason,
  type UnschedulableGroup,
} from '../../functions/use-cases/plan/unschedulable-groups.ts';

/** Why the last pass that looked at each pod could not place it, by `namespace/name`. */
export function reportedUnschedulable(passes: readonly PassReport[]): Map<string, string> {
  const reasons = new Map<string, string>();
  for (const pass of passes) for (const u of pass.unschedulable) reasons.set(u.pod, u.reason);
  return reasons;
}

/** The pending pods with a reason given; those without one fail the placement invariant. */
export function pendingReasons(
  pods: readonly Pod[],
  passes: readonly PassReport[],
): UnschedulableGroup[] {
  const reasons = reportedUnschedulable(passes);
  return groupByReason(
    pods
      .filter((p) => p.nodeName === undefined)
      .map((p) => `${p.namespace}/${p.name}`)
      .flatMap((pod) => {
        const reason = reasons.get(pod);
        return reason === undefined ? [] : [{ pod, reason }];
      }),
  );
}
