/**
 * Kubernetes Events that explain provisioning to whoever runs `kubectl describe pod`: which
 * claim will hold a pod (Karpenter's `Nominated`), why none can (`FailedScheduling`), or why the
 * claim made for it could not launch because its EC2NodeClass is not ready (`NodeClassNotReady`).
 * Karpenter tells the last on the NodeClaim (core: nodeclaim/lifecycle/events.go); Nodesmith's
 * claims are not cluster objects, and the claim is gone once its launch fails, so the pods it
 * was made for carry it: they are what someone asking why nothing launched describes.
 */
import { type Pod, podKey } from '../../domain/pod.ts';
import type { UnschedulablePod } from '../../domain/scheduling/provisioning-plan.ts';
import type { ClusterEvent } from '../../ports/cluster.ts';
import type { LaunchFailure, LaunchRecord } from './pass-report.ts';

/** Karpenter's dedupe windows for these events (core scheduling/events.go). */
const NOMINATED_DEDUPE_SECONDS = 120;
const FAILED_DEDUPE_SECONDS = 300;
/** core: events/recorder.go defaultDedupeTimeout. */
const DEFAULT_DEDUPE_SECONDS = 120;
/** core: nodeclaim/lifecycle/launch.go truncateMessage. */
const MAX_ERROR_LENGTH = 300;

function truncated(message: string): string {
  return message.length < MAX_ERROR_LENGTH ? message : `${message.slice(0, MAX_ERROR_LENGTH)}...`;
}

export interface ProvisioningOutcomes {
  readonly launches: readonly LaunchRecord[];
  readonly unschedulable: readonly UnschedulablePod[];
  readonly failures: readonly LaunchFailure[];
}

/** An event for one pod, told to its describe output; a pod the snapshot no longer has gets none. */
type PodEvent = Omit<ClusterEvent, 'involvedObject'> & { readonly pod: string };

export function podEvents(
  pods: readonly Pod[],
  { launches, unschedulable, failures }: ProvisioningOutcomes,
): ClusterEvent[] {
  const byKey = new Map(pods.map((p) => [podKey(p), p]));
  const wanted: PodEvent[] = [
    ...launches.flatMap((launch) =>
      launch.pods.map((pod) => ({
        pod,
        type: 'Normal' as const,
        reason: 'Nominated',
        message: `Pod should schedule on: nodeclaim/${launch.claim.name}`,
        dedupeSeconds: NOMINATED_DEDUPE_SECONDS,
      })),
    ),
    ...unschedulable.map(({ pod, reason }) => ({
      pod,
      type: 'Warning' as const,
      reason: 'FailedScheduling',
      message: `Failed to schedule pod, ${reason}`,
      dedupeSeconds: FAILED_DEDUPE_SECONDS,
    })),
    ...failures
      .filter((f) => f.nodeClassNotReady)
      .flatMap((failure) =>
        failure.pods.map((pod) => ({
          pod,
          type: 'Warning' as const,
          reason: 'NodeClassNotReady',
          message: `NodeClaim ${failure.claim} event: ${truncated(failure.reason)}`,
          dedupeSeconds: DEFAULT_DEDUPE_SECONDS,
        })),
      ),
  ];
  return wanted.flatMap(({ pod: key, ...event }) => {
    const pod = byKey.get(key);
    if (pod === undefined) return [];
    const involvedObject = { kind: 'Pod', name: pod.name, namespace: pod.namespace, uid: pod.uid };
    return [{ involvedObject, ...event }];
  });
}
