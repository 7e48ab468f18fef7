/**
 * Kubernetes Events that explain provisioning to whoever runs `kubectl describe pod`: which
 * claim will hold a pod (Karpenter's `Nominated`) or why none can (`FailedScheduling`).
 */
import { type Pod, podKey } from '../../domain/pod.ts';
import type { UnschedulablePod } from '../../domain/scheduling/provisioning-plan.ts';
import type { ClusterEvent } from '../../ports/cluster.ts';
import type { LaunchRecord } from './pass-report.ts';

/** Karpenter's dedupe windows for these events (core scheduling/events.go). */
const NOMINATED_DEDUPE_SECONDS = 120;
const FAILED_DEDUPE_SECONDS = 300;

function podObject(pod: Pod): ClusterEvent['involvedObject'] {
  return { kind: 'Pod', name: pod.name, namespace: pod.namespace, uid: pod.uid };
}

export function podEvents(
  pods: readonly Pod[],
  launches: readonly LaunchRecord[],
  unschedulable: readonly UnschedulablePod[],
): ClusterEvent[] {
  const byKey = new Map(pods.map((p) => [podKey(p), p]));
  const events: ClusterEvent[] = [];
  for (const launch of launches) {
    for (const key of launch.pods) {
      const pod = byKey.get(key);
      if (pod === undefined) continue;
      events.push({
        involvedObject: podObject(pod),
        type: 'Normal',
        reason: 'Nominated',
        message: `Pod should schedule on: nodeclaim/${launch.claim.name}`,
        dedupeSeconds: NOMINATED_DEDUPE_SECONDS,
      });
    }
  }
  for (const { pod: key, reason } of unschedulable) {
    const pod = byKey.get(key);
    if (pod === undefined) continue;
    events.push({
      involvedObject: podObject(pod),
      type: 'Warning',
      reason: 'FailedScheduling',
      message: `Failed to schedule pod, ${reason}`,
      dedupeSeconds: FAILED_DEDUPE_SECONDS,
    });
  }
  return events;
}
