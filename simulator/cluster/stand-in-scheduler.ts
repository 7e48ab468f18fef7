/**
 * The simulated cluster's kube-scheduler: binds pending pods to Ready nodes they fit on and
 * marks the rest `PodScheduled=False/Unschedulable`, the signal Nodesmith acts on. It judges fit
 * with the domain's own scheduler over the live nodes only (no pools, no in-flight claims), so
 * its constraints — resources, taints, affinity, topology spread, volumes — are the ones `plan`
 * applies. Like kube-scheduler it reserves nothing for daemons that have not started.
 */
import type { Node } from '../../functions/domain/node.ts';
import { planProvisioning } from '../../functions/domain/scheduling/plan-provisioning.ts';
import { toDaemonSet } from '../../functions/manifests/kubernetes/daemon-set.ts';
import { toNamespace } from '../../functions/manifests/kubernetes/namespace.ts';
import { toNode } from '../../functions/manifests/kubernetes/node.ts';
import { toPod } from '../../functions/manifests/kubernetes/pod.ts';
import {
  toPersistentVolume,
  toPersistentVolumeClaim,
  toStorageClass,
} from '../../functions/manifests/kubernetes/storage.ts';
import type { Clock } from '../../functions/ports/clock.ts';
import type { JsonObject } from '../api-server/json.ts';
import type { ObjectStore } from '../api-server/storage.ts';
import { SharedObjectReader } from './shared-object-reader.ts';

export interface SchedulingCycle {
  /** `namespace/name` of pods bound this cycle, with their node. */
  readonly bound: readonly { readonly pod: string; readonly node: string }[];
  /** Pods marked Unschedulable this cycle (not those already marked). */
  readonly markedUnschedulable: readonly string[];
}

function conditionsOf(object: JsonObject): JsonObject[] {
  const status = (object.status ?? {}) as JsonObject;
  return Array.isArray(status.conditions) ? (status.conditions as JsonObject[]) : [];
}

function withCondition(object: JsonObject, condition: JsonObject, phase: string): JsonObject {
  const others = conditionsOf(object).filter((c) => c.type !== condition.type);
  return {
    ...object,
    status: { ...((object.status ?? {}) as JsonObject), phase, conditions: [...others, condition] },
  };
}

export class StandInScheduler {
  readonly #store: ObjectStore;
  readonly #clock: Clock;
  // Every pod and node is read each second and few change: each stored version is read once.
  readonly #pods = new SharedObjectReader(toPod);
  readonly #nodes = new SharedObjectReader(toNode);

  constructor(store: ObjectStore, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  /** One scheduling cycle over every pending pod. */
  cycle(): SchedulingCycle {
    const podObjects = new Map(this.#store.listShared('pods').map((o) => [keyOf(o), o]));
    const pods = [...podObjects.values()].map(this.#pods.read);
    if (!pods.some((p) => p.nodeName === undefined && !p.deleting)) {
      return { bound: [], markedUnschedulable: [] };
    }
    const nodes = this.#store.listShared('nodes').map(this.#nodes.read).filter(schedulable);
    const plan = planProvisioning({
      pods,
      nodes,
      nodeClaims: [],
      nodePools: [],
      instanceTypes: new Map(),
      daemonSets: this.#store.list('daemonsets').map(toDaemonSet),
      persistentVolumeClaims: this.#store
        .list('persistentvolumeclaims')
        .map(toPersistentVolumeClaim),
      persistentVolumes: this.#store.list('persistentvolumes').map(toPersistentVolume),
      storageClasses: this.#store.list('storageclasses').map(toStorageClass),
      namespaces: new Map(
        this.#store
          .list('namespaces')
          .map(toNamespace)
          .map((n) => [n.name, n.labels]),
      ),
    });
    const bound = plan.existingNodes.flatMap((placement) =>
      placement.pods.map((pod) => this.#bind(podObjects.get(pod), pod, placement.name)),
    );
    const marked = plan.unschedulable.flatMap(({ pod }) =>
      this.#markUnschedulable(podObjects.get(pod), pod, nodes.length),
    );
    return { bound: bound.filter((b) => b !== undefined), markedUnschedulable: marked };
  }

  #bind(object: JsonObject | undefined, pod: string, node: string) {
    if (object === undefined) return undefined;
    const now = this.#clock.now().toISOString();
    const spec = { ...((object.spec ?? {}) as JsonObject), nodeName: node };
    const scheduled = withCondition(
      { ...object, spec },
      { type: 'PodScheduled', status: 'True', lastTransitionTime: now },
      'Running',
    );
    this.#store.update('pods', scheduled);
    return { pod, node };
  }

  #markUnschedulable(object: JsonObject | undefined, pod: string, nodeCount: number): string[] {
    if (object === undefined || this.#pods.read(object).markedUnschedulable) return [];
    this.#store.update(
      'pods',
      withCondition(
        object,
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message: `0/${nodeCount} nodes are available: no node has room for the pod.`,
          lastTransitionTime: this.#clock.now().toISOString(),
        },
        'Pending',
      ),
    );
    return [pod];
  }
}

function schedulable(node: Node): boolean {
  return node.ready && !node.deleting;
}

function keyOf(object: JsonObject): string {
  const metadata = object.metadata as JsonObject;
  return `${String(metadata.namespace ?? 'default')}/${String(metadata.name)}`;
}
