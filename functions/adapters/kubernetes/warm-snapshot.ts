/**
 * What a warm controller function keeps of the cluster between passes (docs/design.md §3.3.1):
 * its nodes and the pods that may still run, the two lists that grow with the cluster. A pass
 * reads the cluster's revision first (a one-item list), then catches nodes and pods up to it at
 * once, and pods again to wherever nodes got when a node changed after that, so pods are never
 * read older than nodes, as a cold pass reads them (§3.3). Each catch-up is a short watch from
 * the revision last seen, raced by a streamed list where the server offers one; a 410, an error
 * or anything unexpected reads that kind whole again. Built once per container, outliving the
 * clients of each pass (a cluster object is built for each token).
 */
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { Node } from '../../domain/node.ts';
import type { Pod } from '../../domain/pod.ts';
import type { KubernetesApis } from './clients.ts';
import { request } from './errors.ts';
import { NOT_TERMINAL } from './field-selectors.ts';
import { fromV1Node, fromV1Pod } from './mappers.ts';
import { type ReflectedKind, Reflector } from './reflector.ts';

const NODES: ReflectedKind<V1Node, Node> = {
  resource: 'nodes',
  path: '/api/v1/nodes',
  model: 'V1Node',
  list: (apis, query) => apis.core.listNode(query),
  map: fromV1Node,
};

const PODS: ReflectedKind<V1Pod, Pod> = {
  resource: 'pods',
  path: '/api/v1/pods',
  model: 'V1Pod',
  fieldSelector: NOT_TERMINAL,
  list: (apis, query) => apis.core.listPodForAllNamespaces(query),
  map: fromV1Pod,
};

/**
 * The shortest watch the API offers (`timeoutSeconds` is whole seconds): what a catch-up waits
 * at most when no change of its kind reaches the cluster's revision.
 */
export const DEFAULT_WATCH_SECONDS = 1;

export interface WarmSnapshotOptions {
  /** How long a catch-up watch may stay open. @default 1 */
  readonly watchSeconds?: number;
  /**
   * How long a kind's catch-up may take before a whole read of it races the watch. @default at
   * once for a streamed list, as long as the kind's last list took for a list
   */
  readonly raceAfterMs?: number;
}

/** Nodes read, and pods on their way: the rest of a snapshot is read meanwhile. */
export interface NodesThenPods {
  readonly nodes: Node[];
  readonly pods: Promise<Pod[]>;
}

export class WarmSnapshot {
  readonly #nodes = new Reflector(NODES);
  readonly #pods = new Reflector(PODS);
  readonly #watchSeconds: number;
  readonly #raceAfterMs: number | undefined;

  constructor(options: WarmSnapshotOptions = {}) {
    this.#watchSeconds = options.watchSeconds ?? DEFAULT_WATCH_SECONDS;
    this.#raceAfterMs = options.raceAfterMs;
  }

  /**
   * Nodes and pods, each at the cluster's revision when called or later, pods no older than
   * nodes: both are caught up at once, and pods again when a node change came after theirs.
   */
  async nodesThenPods(apis: KubernetesApis, pageSize: number): Promise<NodesThenPods> {
    const target = await clusterRevision(apis);
    if (!Number.isFinite(target)) {
      // No revision to catch up to: read both afresh.
      this.#nodes.forget();
      this.#pods.forget();
    }
    const raceAfterMs = this.#raceAfterMs;
    const common = {
      watchSeconds: this.#watchSeconds,
      pageSize,
      ...(raceAfterMs === undefined ? {} : { raceAfterMs }),
    };
    const [nodes, pods] = await bothSettled(
      this.#nodes.sync(apis, { ...common, target }),
      this.#pods.sync(apis, { ...common, target }),
    );
    const nodesAt = this.#nodes.revision ?? target;
    const podsAt = this.#pods.revision ?? target;
    if (podsAt >= nodesAt) return { nodes, pods: Promise.resolve(pods) };
    return { nodes, pods: this.#pods.sync(apis, { ...common, target: nodesAt }) };
  }

  /** Forgets both kinds: the next pass lists them. */
  forget(): void {
    this.#nodes.forget();
    this.#pods.forget();
  }
}

/**
 * Both values, once both promises have settled: a reflector must not be left syncing when the
 * pass that started it has failed, or the next pass would sync it at the same time.
 */
async function bothSettled<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [first, second] = await Promise.allSettled([a, b]);
  if (first.status === 'rejected') throw first.reason;
  if (second.status === 'rejected') throw second.reason;
  return [first.value, second.value];
}

/** The cluster's revision now, from a one-node list (a consistent read, as every list is). */
async function clusterRevision(apis: KubernetesApis): Promise<number> {
  const call = { doing: 'reading the cluster revision', verb: 'list', resource: 'nodes' } as const;
  const page = await request(call, () => apis.core.listNode({ limit: 1 }));
  return Number(page.metadata?.resourceVersion ?? Number.NaN);
}
