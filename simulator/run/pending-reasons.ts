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
import type { JsonObject } from '../api-server/json.ts';

/** Why the last pass that looked at each pod could not place it, by `namespace/name`. */
export function reportedUnschedulable(passes: readonly PassReport[]): Map<string, string> {
  const reasons = new Map<string, string>();
  for (const pass of passes) for (const u of pass.unschedulable) reasons.set(u.pod, u.reason);
  return reasons;
}

/** The prefix of Karpenter's `FailedScheduling` message, before the reason itself. */
const FAILED_TO_SCHEDULE = 'Failed to schedule pod, ';

/**
 * The same reasons read as an operator reads them when the passes run out of reach (deployed):
 * from each pod's latest `FailedScheduling` event.
 */
export function toldUnschedulable(events: readonly JsonObject[]): Map<string, string> {
  const told = events
    .filter(
      (e) => e.reason === 'FailedScheduling' && String(e.message).startsWith(FAILED_TO_SCHEDULE),
    )
    .map((e) => ({
      event: e,
      at: String(e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? ''),
    }))
    .sort((a, b) => a.at.localeCompare(b.at));
  const reasons = new Map<string, string>();
  for (const { event } of told) {
    const pod = event.involvedObject as JsonObject;
    if (pod.kind !== 'Pod') continue;
    reasons.set(
      `${pod.namespace}/${pod.name}`,
      String(event.message).slice(FAILED_TO_SCHEDULE.length),
    );
  }
  return reasons;
}

/** The pending pods with a reason given; those without one fail the placement invariant. */
export function pendingReasons(
  pods: readonly Pod[],
  reasons: ReadonlyMap<string, string>,
): UnschedulableGroup[] {
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
