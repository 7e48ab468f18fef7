/**
 * What the controller did to pods while taking nodes away, seen from the cluster's side: every
 * eviction and forced delete, with the disruption that caused it, whether the pod asked not to
 * be disrupted, and what its PodDisruptionBudget allowed at that moment; and, after each pass,
 * how many nodes voluntary disruption was taking from each pool against what its budgets allow,
 * with, when the pass started disrupting more of the pool, the pool as Karpenter counts it then.
 * The disruption invariants are judged from it.
 */

import { allowance, type PoolDisruptionCounts } from '../../functions/domain/disruption/budgets.ts';
import { doNotDisrupt } from '../../functions/domain/disruption/do-not-disrupt.ts';
import { selectorMatches } from '../../functions/domain/label-selector.ts';
import { isGoing } from '../../functions/domain/lifecycle/claim-deletion.ts';
import type { Node } from '../../functions/domain/node.ts';
import type { DisruptionReason, NodePool } from '../../functions/domain/node-pool.ts';
import type { NodeClaimRecord } from '../../functions/domain/state/node-claim-record.ts';
import { toNode } from '../../functions/manifests/kubernetes/node.ts';
import type { Cluster, PodReference } from '../../functions/ports/cluster.ts';
import type { StateStore } from '../../functions/ports/state-store.ts';
import { cronSchedules } from '../../functions/use-cases/disruption/cron-schedules.ts';
import type { JsonObject } from '../api-server/json.ts';
import type { FakeApiServer } from '../api-server/server.ts';
import { budgetCounts } from './budget-counts.ts';

/** Karpenter's voluntary reasons; interruptions and expiration are not held to budgets and PDBs. */
const VOLUNTARY = new Set(['Empty', 'Underutilized', 'Drifted']);

export interface PodRemoval {
  readonly pod: string;
  readonly forced: boolean;
  readonly reason: string;
  readonly protectedPod: boolean;
  /** The guarding budget allowed no disruption when the request was made. */
  readonly budgetSpent: boolean;
  readonly done: boolean;
}

/**
 * Voluntary disruption starting on more of a pool: how many nodes it began taking, and the pool
 * as Karpenter counts it for budgets, those nodes included (budget-counts.ts).
 */
export interface BudgetedStart {
  readonly started: number;
  readonly nodes: number;
  readonly disrupting: number;
  /** What the budgets of the reasons started allow over those nodes. */
  readonly allowed: number;
}

export interface BudgetSample {
  readonly at: string;
  readonly nodePool: string;
  /** Nodes voluntary disruption is taking from the pool, whenever it started. */
  readonly disrupting: number;
  /** What the pool's budgets allow over its initialized nodes now. */
  readonly allowed: number;
  /** Present when the pass just sampled started voluntary disruption in the pool. */
  readonly start?: BudgetedStart;
}

export class DisruptionLedger {
  readonly removals: PodRemoval[] = [];
  readonly budgets: BudgetSample[] = [];
  readonly #server: FakeApiServer;
  readonly #state: StateStore;
  readonly #now: () => Date;
  /** Claims voluntary disruption was taking at the last sample. */
  #voluntary = new Set<string>();

  constructor(server: FakeApiServer, state: StateStore, now: () => Date) {
    this.#server = server;
    this.#state = state;
    this.#now = now;
  }

  /** The cluster the controller sees, with its pod removals written down first. */
  watch(cluster: Cluster): Cluster {
    return {
      ...bindAll(cluster),
      evict: async (pod) => {
        const before = await this.#describe(pod);
        const outcome = await cluster.evict(pod);
        this.#write(before, false, outcome.evicted);
        return outcome;
      },
      deletePod: async (pod, grace) => {
        const before = await this.#describe(pod);
        await cluster.deletePod(pod, grace);
        this.#write(before, true, true);
      },
    };
  }

  #write(
    before: Omit<PodRemoval, 'forced' | 'done'> | undefined,
    forced: boolean,
    done: boolean,
  ): void {
    if (before !== undefined) this.removals.push({ ...before, forced, done });
  }

  async #describe(ref: PodReference): Promise<Omit<PodRemoval, 'forced' | 'done'> | undefined> {
    const pod = this.#server.store.get('pods', ref.name, ref.namespace);
    if (pod === undefined) return undefined;
    const meta = pod.metadata as JsonObject;
    const node = (pod.spec as JsonObject | undefined)?.nodeName as string | undefined;
    const claims = await this.#state.nodeClaims.list();
    const claim = claims.find((c) => c.nodeName === node);
    const labels = (meta.labels ?? {}) as Record<string, string>;
    const budgets = this.#server.store.list('poddisruptionbudgets', ref.namespace).filter((b) => {
      const selector = (b.spec as JsonObject | undefined)?.selector as JsonObject | undefined;
      return selector !== undefined && selectorMatches(selector, labels);
    });
    const allowed = budgets.map((b) =>
      Number((b.status as JsonObject | undefined)?.disruptionsAllowed ?? 0),
    );
    const annotations = (meta.annotations ?? {}) as Record<string, string>;
    return {
      pod: `${ref.namespace}/${ref.name}`,
      reason: claim?.disruption?.reason ?? 'unknown',
      protectedPod: doNotDisrupt(
        annotations,
        meta.creationTimestamp as string | undefined,
        this.#now().getTime(),
      ).active,
      budgetSpent: allowed.some((n) => n <= 0),
    };
  }

  /**
   * After a pass: nodes each pool is losing to voluntary disruption, against its budget; and,
   * for a pool the pass began taking more nodes from, whether its budgets let that start.
   */
  async sampleBudgets(): Promise<void> {
    const claims = await this.#state.nodeClaims.list();
    const pools = await this.#state.nodePools.list();
    const now = this.#now();
    const nodes = this.#nodes();
    const voluntary = claims.filter((c) => isVoluntarilyGoing(c));
    const starting = voluntary.filter((c) => !this.#voluntary.has(c.name));
    for (const { document: pool } of pools) {
      const own = claims.filter((c) => c.nodePool === pool.metadata.name);
      const started = starting.filter((c) => c.nodePool === pool.metadata.name);
      this.budgets.push(budgetSample(pool, { own, started, nodes }, now));
    }
    this.#voluntary = new Set(voluntary.map((c) => c.name));
  }

  #nodes(): Map<string, Node> {
    const nodes = this.#server.store.list('nodes').map((n) => toNode(n));
    return new Map(nodes.map((n) => [n.name, n]));
  }

  /** The latest sample of every pool, summed: what the budget chart draws at this moment. */
  current(): { readonly disrupting: number; readonly allowed: number } {
    const latest = new Map<string, BudgetSample>();
    for (const sample of this.budgets) latest.set(sample.nodePool, sample);
    let disrupting = 0;
    let allowed = 0;
    for (const sample of latest.values()) {
      disrupting += sample.disrupting;
      allowed += sample.allowed;
    }
    return { disrupting, allowed };
  }

  isVoluntary(reason: string): boolean {
    return VOLUNTARY.has(reason);
  }
}

/** The most any of `reasons`' budgets allows over `counts.nodes`. */
function budgeted(
  pool: NodePool,
  reasons: Iterable<string>,
  counts: PoolDisruptionCounts,
  now: Date,
): number {
  return Math.max(
    ...[...reasons].map(
      (reason) =>
        allowance(pool, reason as DisruptionReason, counts, now.getTime(), cronSchedules).budgeted,
    ),
  );
}

/** A pool's claims, those the pass just sampled began taking voluntarily, and the cluster's Nodes. */
interface PoolAfterPass {
  readonly own: readonly NodeClaimRecord[];
  readonly started: readonly NodeClaimRecord[];
  readonly nodes: ReadonlyMap<string, Node>;
}

/** What the budget chart draws for the pool, and the start the invariant judges, if any. */
function budgetSample(pool: NodePool, after: PoolAfterPass, now: Date): BudgetSample {
  const { own, started } = after;
  const initialized = own.filter((c) => c.timestamps.Initialized !== undefined).length;
  return {
    at: now.toISOString(),
    nodePool: pool.metadata.name,
    disrupting: own.filter((c) => isVoluntarilyGoing(c)).length,
    allowed: budgeted(pool, VOLUNTARY, { nodes: initialized, disrupting: 0 }, now),
    ...(started.length === 0 ? {} : { start: budgetedStart(pool, after, now) }),
  };
}

/**
 * Karpenter lets a command start only while its pool's budget, less every node already being
 * disrupted, leaves room for its candidates (core: disruption/validation.go validateCandidates);
 * once started, the command finishes whatever happens to the pool meanwhile (queue.go
 * waitOrTerminate). So the pool is judged as it stands with the started nodes counted in, against
 * the most generous of the reasons started: methods run one after another, each counting those
 * before it.
 */
function budgetedStart(pool: NodePool, after: PoolAfterPass, now: Date): BudgetedStart {
  const counts = budgetCounts(after.own, after.nodes);
  const reasons = new Set(after.started.flatMap((c) => c.disruption?.reason ?? []));
  const allowed = budgeted(pool, reasons, counts, now);
  return { started: after.started.length, ...counts, allowed };
}

function isVoluntarilyGoing(claim: NodeClaimRecord): boolean {
  const reason = claim.disruption?.reason;
  if (reason === undefined || !VOLUNTARY.has(reason)) return false;
  return isGoing(claim) || claim.disruption?.stage === 'Replacing';
}

/**
 * Every method of the Cluster port: a record keyed by them, so a method added to the port and
 * missing here fails to compile instead of vanishing from the watched copy.
 */
const CLUSTER_METHODS: Readonly<Record<keyof Cluster, true>> = {
  snapshot: true,
  nodes: true,
  pendingPods: true,
  pods: true,
  podsOnNode: true,
  daemonSets: true,
  podDisruptionBudgets: true,
  persistentVolumes: true,
  persistentVolumeClaims: true,
  storageClasses: true,
  runtimeClasses: true,
  namespaces: true,
  patchNodeMetadata: true,
  registerNode: true,
  addFinalizer: true,
  removeFinalizer: true,
  addTaints: true,
  removeTaints: true,
  cordon: true,
  uncordon: true,
  deleteNode: true,
  evict: true,
  deletePod: true,
  createEvent: true,
  karpenterNodeClaims: true,
  releaseKarpenterNodeClaim: true,
};

/** The cluster's methods bound to it, so a spread copy still works on a class instance. */
function bindAll(cluster: Cluster): Cluster {
  const bound: Record<string, unknown> = {};
  for (const name of Object.keys(CLUSTER_METHODS) as (keyof Cluster)[]) {
    const method = cluster[name] as (...args: unknown[]) => unknown;
    bound[name] = method.bind(cluster);
  }
  return bound as unknown as Cluster;
}
