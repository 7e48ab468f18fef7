/**
 * How long pods took to start, as Karpenter measures it (core: pkg/controllers/metrics/pod/
 * controller.go): from a pod's creation to its `Ready` condition turning True
 * (`karpenter_pods_startup_duration_seconds`), and to its `PodScheduled` condition turning True,
 * its binding (`karpenter_pods_bound_duration_seconds`), each from the pod's own timestamps.
 *
 * Karpenter watches every pod and observes each once, the first time it sees the condition True
 * after seeing the pod Pending. A pass reads the pods once, up to a minute after the last, so it
 * observes each transition in one window: after the previous pass's start and up to its own,
 * both less the time a kubelet's status may take to reach the API server, so a transition the
 * previous pass could not see yet is counted now, and none twice. A pod whose container
 * restarted is left out of the startup duration, as its Ready may be a later one than its first:
 * Karpenter counts a pod only until it is first Ready.
 */
import type { Pod } from './pod.ts';

/** How late a kubelet's status update may reach the API server and still be counted. */
export const POD_STATUS_LAG_MS = 10_000;

/** The transitions one pass observes: after `after`, up to and including `upTo` (epoch ms). */
export interface TransitionWindow {
  readonly after: number;
  readonly upTo: number;
}

/** Observations in seconds, one per pod. */
export interface PodStartups {
  readonly startup: readonly number[];
  readonly bound: readonly number[];
}

/**
 * The window of the pass that started at `passStart`, after the one that started at
 * `previousPassStart`; none for the first pass, which has nothing to count from.
 */
export function transitionWindow(
  previousPassStart: string | undefined,
  passStart: Date,
): TransitionWindow | undefined {
  const after = Date.parse(previousPassStart ?? '');
  if (Number.isNaN(after)) return undefined;
  return { after: after - POD_STATUS_LAG_MS, upTo: passStart.getTime() - POD_STATUS_LAG_MS };
}

/** Seconds from the pod's creation to `at`, when `at` falls in the window. */
function sinceCreation(pod: Pod, at: string | undefined, window: TransitionWindow): number[] {
  const transition = Date.parse(at ?? '');
  const created = Date.parse(pod.creationTimestamp ?? '');
  if (Number.isNaN(transition) || Number.isNaN(created)) return [];
  if (transition <= window.after || transition > window.upTo || transition < created) return [];
  return [(transition - created) / 1000];
}

export function podStartups(pods: readonly Pod[], window: TransitionWindow): PodStartups {
  return {
    startup: pods.flatMap((pod) =>
      pod.containerRestarts === undefined ? sinceCreation(pod, pod.readyAt, window) : [],
    ),
    bound: pods.flatMap((pod) => sinceCreation(pod, pod.scheduledAt, window)),
  };
}
