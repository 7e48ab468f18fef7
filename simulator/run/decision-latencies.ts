/**
 * How long each pod waited between kube-scheduler marking it Unschedulable and the pass that
 * first gave it a place: a claim launched for it, or room on a node or claim that already
 * exists (one still on its way included). Observed once per pod, as Karpenter observes
 * `karpenter_pods_scheduling_decision_duration_seconds` (kubernetes-sigs/karpenter,
 * pkg/controllers/state/cluster.go, `MarkPodSchedulingDecisions`). Times are simulated seconds.
 */
export class DecisionLatencies {
  /** Pods marked and not yet placed, with when they were first marked. */
  readonly #waitingSince = new Map<string, number>();
  readonly #everMarked = new Set<string>();
  readonly #samplesMs: number[] = [];

  /** Pods marked again keep the moment they were first marked. */
  marked(t: number, pods: readonly string[]): void {
    for (const pod of pods) {
      if (this.#everMarked.has(pod)) continue;
      this.#everMarked.add(pod);
      this.#waitingSince.set(pod, t);
    }
  }

  /**
   * Pods kube-scheduler bound stop waiting: a later plan that names them (a replacement for the
   * node they run on) is not the answer to their Unschedulable mark.
   */
  bound(pods: readonly string[]): void {
    for (const pod of pods) this.#waitingSince.delete(pod);
  }

  /** A pass gave these pods a place at `t`; only a pod's first place is its decision. */
  placed(t: number, pods: readonly string[]): void {
    for (const pod of pods) {
      const since = this.#waitingSince.get(pod);
      if (since === undefined) continue;
      this.#waitingSince.delete(pod);
      // Whole milliseconds: event times read back as seconds carry binary fractions.
      this.#samplesMs.push(Math.round(Math.max(0, t - since) * 1000));
    }
  }

  samplesMs(): readonly number[] {
    return this.#samplesMs;
  }
}
