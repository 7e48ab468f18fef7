/**
 * The order pods are tried in: largest CPU first, then memory, then oldest, then uid. A pod that
 * fails goes to the back; the pass ends when a pod comes round again with nothing placed since
 * it was last tried (core: scheduling/queue.go).
 */
import type { SchedulingPod } from './scheduling-pod.ts';

function byLargestFirst(a: SchedulingPod, b: SchedulingPod): number {
  return (
    b.core.cpu - a.core.cpu ||
    b.core.memory - a.core.memory ||
    compareText(a.pod.creationTimestamp ?? '', b.pod.creationTimestamp ?? '') ||
    compareText(a.uid, b.uid)
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export class Queue {
  private readonly pods: SchedulingPod[];
  private head = 0;
  private readonly lastSeenAt = new Map<string, number>();

  constructor(pods: readonly SchedulingPod[]) {
    this.pods = [...pods].sort(byLargestFirst);
  }

  get length(): number {
    return this.pods.length - this.head;
  }

  pop(): SchedulingPod | undefined {
    const pod = this.pods[this.head];
    if (pod === undefined) return undefined;
    // Same queue length as when this pod was last popped: a full round placed nothing.
    if (this.lastSeenAt.get(pod.uid) === this.length) return undefined;
    this.lastSeenAt.set(pod.uid, this.length);
    this.head++;
    return pod;
  }

  /** Requeues a pod that failed; a relaxed pod gets a fresh round for everyone. */
  push(pod: SchedulingPod, relaxed: boolean): void {
    this.pods.push(pod);
    if (relaxed) this.lastSeenAt.clear();
    if (this.head > 1024 && this.head * 2 > this.pods.length) {
      this.pods.splice(0, this.head);
      this.head = 0;
    }
  }

  remaining(): readonly SchedulingPod[] {
    return this.pods.slice(this.head);
  }
}
