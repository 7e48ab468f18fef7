/**
 * "Where would these nodes' pods go?" answered by the very scheduler `plan` uses (core:
 * disruption/helpers.go, SimulateScheduling): the nodes are taken out, their pods become pending,
 * and everything else stays where it is. Pods already pending are provisioning's business and
 * are left out. A pod that would land on a node not yet initialized does not count as placed:
 * Karpenter never moves pods onto capacity that might not come up.
 */
import type { Node } from '../node.ts';
import { podKey } from '../pod.ts';
import {
  type PreparedScheduling,
  planProvisioning,
  prepareScheduling,
} from '../scheduling/plan-provisioning.ts';
import type { PlannedNodeClaim } from '../scheduling/provisioning-plan.ts';
import type { Candidate } from './candidate.ts';
import type { DisruptionInput } from './disruption-input.ts';
import type { PodError } from './unconsolidatable.ts';

export type RemovalOutcome =
  | {
      readonly ok: true;
      /** New claims the candidates' pods need, with those pods on them. */
      readonly newClaims: readonly PlannedNodeClaim[];
    }
  | {
      readonly ok: false;
      readonly reason: string;
      /** Every moving pod left without a place, for Karpenter's sentence (unconsolidatable.ts). */
      readonly podErrors: readonly PodError[];
    };

export class RemovalSimulator {
  readonly #input: DisruptionInput;
  readonly #boundPods: DisruptionInput['pods'];
  #prepared: { scheduling: PreparedScheduling; uninitialized: ReadonlySet<string> } | undefined;

  readonly #settling: ReadonlySet<string>;

  /** `settling`: nodes inside their consolidateAfter window, which receive no moved pods. */
  constructor(input: DisruptionInput, settling: ReadonlySet<string>) {
    this.#input = input;
    this.#settling = settling;
    this.#boundPods = input.pods.filter((pod) => pod.nodeName !== undefined);
  }

  /** Templates and state nodes, built once on first use: most passes simulate nothing. */
  #prepare() {
    if (this.#prepared !== undefined) return this.#prepared;
    const scheduling = prepareScheduling({ ...this.#input, pods: this.#boundPods });
    const uninitialized = new Set(
      scheduling.nodes.filter((n) => !n.initialized).map((n) => n.input.name),
    );
    this.#prepared = { scheduling, uninitialized };
    return this.#prepared;
  }

  /** Takes the candidates out, with the nodes in `going` (decided earlier) gone as well. */
  simulate(candidates: readonly Candidate[], going: ReadonlySet<string>): RemovalOutcome {
    const prepared = this.#prepare();
    const removed = new Set([...going, ...candidates.map((c) => c.node.name)]);
    const nodes = this.#input.nodes.map(
      (n): Node => (removed.has(n.name) ? { ...n, deleting: true } : n),
    );
    const plan = planProvisioning(
      { ...this.#input, pods: this.#boundPods, nodes },
      prepared.scheduling,
    );
    const moving = new Set(candidates.flatMap((c) => c.pods.map(podKey)));
    const stuck = plan.unschedulable.filter((u) => moving.has(u.pod));
    const [first] = stuck;
    if (first !== undefined) {
      return {
        ok: false,
        reason: `pod ${first.pod} would fit nowhere else: ${first.reason}`,
        podErrors: stuck.map((u) => ({ pod: u.pod, error: u.reason })),
      };
    }
    for (const placement of plan.existingNodes) {
      const why = prepared.uninitialized.has(placement.name)
        ? 'is not initialized yet'
        : this.#settling.has(placement.name)
          ? 'is inside its consolidateAfter window'
          : undefined;
      const pods = why === undefined ? [] : placement.pods.filter((p) => moving.has(p));
      const [pod] = pods;
      if (pod !== undefined) {
        // core: disruption/helpers.go UninitializedNodeError names the node so.
        const error = prepared.uninitialized.has(placement.name)
          ? `would schedule against uninitialized node/${placement.name}`
          : `would schedule against node/${placement.name}, inside its consolidateAfter window`;
        return {
          ok: false,
          reason: `pod ${pod} would only fit on ${placement.name}, which ${why}`,
          podErrors: pods.map((p) => ({ pod: p, error })),
        };
      }
    }
    const newClaims = plan.nodeClaims.filter((claim) => claim.pods.some((p) => moving.has(p)));
    return { ok: true, newClaims };
  }
}
