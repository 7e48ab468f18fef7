/**
 * What keeps workloads running in the simulated cluster besides the scheduler: kubelets finish
 * graceful pod deletions (within a few seconds, as containers stop), the pod garbage collector
 * removes pods of nodes that are gone, and the workload controllers (ReplicaSet, StatefulSet,
 * Job) put back every pod they own that went away while the workload still wants it. A
 * ReplicaSet's new pod gets a new name; a StatefulSet's comes back under its own. A DaemonSet's
 * pod is not put back: it belongs to its node, and goes with it (a drained node is tainted
 * against it, a terminated one is gone).
 */
import type { Clock } from '../../functions/ports/clock.ts';
import type { JsonObject } from '../api-server/json.ts';
import type { ObjectStore } from '../api-server/storage.ts';

/** Containers stop quickly in the simulation; a longer grace period is cut to this. */
const STOP_SECONDS = 5;

function metadataOf(object: JsonObject): JsonObject {
  return (object.metadata ?? {}) as JsonObject;
}

function keyOf(object: JsonObject): string {
  const meta = metadataOf(object);
  return `${String(meta.namespace ?? 'default')}/${String(meta.name)}`;
}

function ownerKindOf(object: JsonObject): string | undefined {
  const owners = metadataOf(object).ownerReferences as JsonObject[] | undefined;
  return owners?.find((o) => o.controller === true)?.kind as string | undefined;
}

function nodeNameOf(object: JsonObject): string | undefined {
  return (object.spec as JsonObject | undefined)?.nodeName as string | undefined;
}

/**
 * The pod as its controller creates it again: same spec, unbound, pending. Its uid is numbered
 * rather than random: the scheduler breaks ties by uid, and a run must repeat for its seed.
 */
function recreated(template: JsonObject, name: string, sequence: number): JsonObject {
  const meta = metadataOf(template);
  const { nodeName: _bound, ...spec } = (template.spec ?? {}) as JsonObject;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: meta.namespace ?? 'default',
      uid: `00000000-0000-4000-9000-${String(sequence).padStart(12, '0')}`,
      labels: meta.labels ?? {},
      annotations: meta.annotations ?? {},
      ...(meta.ownerReferences === undefined ? {} : { ownerReferences: meta.ownerReferences }),
    },
    spec,
    status: { phase: 'Pending' },
  };
}

export class SimulatedWorkloads {
  readonly #store: ObjectStore;
  readonly #clock: Clock;
  /** Pods the workloads want, by key, with the object to recreate them from. */
  readonly #wanted = new Map<string, JsonObject>();
  /** Which pod replaced which, so a scale-down names the pods it meant. */
  readonly #successor = new Map<string, string>();
  /** Pods that went away involuntarily or by eviction and came back. */
  recreatedPods = 0;

  constructor(store: ObjectStore, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  /** Pods a workload created: their controller will keep them, unless it is a DaemonSet. */
  want(pods: readonly JsonObject[]): void {
    for (const pod of pods) {
      const owner = ownerKindOf(pod);
      if (owner !== undefined && owner !== 'DaemonSet') this.#wanted.set(keyOf(pod), pod);
    }
  }

  /** A workload scaled down: the pod (or the one that replaced it) goes and is not wanted back. */
  scaleDown(key: string): void {
    let current = key;
    for (
      let next = this.#successor.get(current);
      next !== undefined;
      next = this.#successor.get(current)
    ) {
      current = next;
    }
    this.#wanted.delete(current);
    const [namespace, name] = current.split('/') as [string, string];
    this.#store.delete('pods', name, namespace);
  }

  tick(): void {
    this.#finishDeletions();
    this.#collectOrphans();
    this.#replaceMissing();
    this.#startContainers();
  }

  /** Bound pods report Ready (kubelets start containers at once here), so budgets count them. */
  #startContainers(): void {
    const now = this.#clock.now().toISOString();
    for (const pod of this.#store.listShared('pods')) {
      if (nodeNameOf(pod) === undefined || metadataOf(pod).deletionTimestamp !== undefined)
        continue;
      const status = (pod.status ?? {}) as JsonObject;
      const conditions = Array.isArray(status.conditions)
        ? (status.conditions as JsonObject[])
        : [];
      if (conditions.some((c) => c.type === 'Ready')) continue;
      const ready = { type: 'Ready', status: 'True', lastTransitionTime: now };
      this.#store.update('pods', {
        ...pod,
        status: { ...status, conditions: [...conditions, ready] },
      });
    }
  }

  #finishDeletions(): void {
    const now = this.#clock.now().getTime();
    for (const pod of this.#store.listShared('pods')) {
      const meta = metadataOf(pod);
      const deletion = meta.deletionTimestamp as string | undefined;
      if (deletion === undefined) continue;
      const grace = Number(meta.deletionGracePeriodSeconds ?? 0);
      const stopAt = Date.parse(deletion) - Math.max(0, grace - STOP_SECONDS) * 1000;
      if (now >= stopAt) this.#store.delete('pods', String(meta.name), String(meta.namespace));
    }
  }

  #collectOrphans(): void {
    const nodes = new Set(this.#store.listShared('nodes').map((n) => String(metadataOf(n).name)));
    for (const pod of this.#store.listShared('pods')) {
      const node = nodeNameOf(pod);
      if (node !== undefined && !nodes.has(node)) {
        const meta = metadataOf(pod);
        this.#store.delete('pods', String(meta.name), String(meta.namespace));
      }
    }
  }

  #replaceMissing(): void {
    const present = new Set(this.#store.listShared('pods').map(keyOf));
    for (const [key, template] of [...this.#wanted]) {
      if (present.has(key)) continue;
      this.#wanted.delete(key);
      this.recreatedPods += 1;
      const name = String(metadataOf(template).name);
      const again =
        ownerKindOf(template) === 'StatefulSet'
          ? name
          : `${name.replace(/-r\d+$/, '')}-r${this.recreatedPods}`;
      const pod = this.#store.create('pods', recreated(template, again, this.recreatedPods));
      this.#wanted.set(keyOf(pod), pod);
      if (keyOf(pod) !== key) this.#successor.set(key, keyOf(pod));
    }
  }
}
