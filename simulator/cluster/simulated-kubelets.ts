/**
 * The kubelets of the simulated cluster: an instance the simulated cloud launched joins as a
 * Node after a boot delay — with its providerID, the labels its launch asked for plus those a
 * kubelet sets itself, and the taints it registers with (`karpenter.sh/unregistered`, the
 * not-ready taint, the claim's taints and startup taints) — and reports Ready a little later.
 * A terminated instance's kubelet stops: its node turns NotReady until someone deletes it.
 */
import type { InstanceType } from '../../functions/domain/instance-type.ts';
import { instanceTypeLabels } from '../../functions/domain/instance-type.ts';
import { Label } from '../../functions/domain/labels.ts';
import { UNREGISTERED_TAINT } from '../../functions/domain/lifecycle/node-readiness.ts';
import { toResourceList } from '../../functions/domain/resources.ts';
import type { Taint } from '../../functions/domain/taints.ts';
import type { Clock } from '../../functions/ports/clock.ts';
import type { LaunchContext, LaunchedInstance } from '../../functions/ports/cloud-provider.ts';
import type { JsonObject } from '../api-server/json.ts';
import type { ObjectStore } from '../api-server/storage.ts';

const NOT_READY: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

export interface KubeletTimings {
  /** From launch to the Node object (boot, kubelet start). */
  readonly registerAfterSeconds: number;
  /** From registration to Ready (CNI up). */
  readonly readyAfterSeconds: number;
}

export const DEFAULT_KUBELET_TIMINGS: KubeletTimings = {
  registerAfterSeconds: 30,
  readyAfterSeconds: 10,
};

type BootingInstance = Pick<
  LaunchedInstance,
  'instanceId' | 'providerID' | 'instanceType' | 'zone' | 'capacityType'
>;

interface Boot {
  readonly instance: BootingInstance;
  readonly context: LaunchContext;
  readonly nodeName: string;
  readonly registerAt: number;
  readonly readyAt: number;
  registered: boolean;
}

/**
 * `ip-10-4-17-201.ec2.internal`, as EC2 names nodes by their private address: an address taken
 * from the instance id, so the same instances get the same names whatever order they boot in.
 */
function nodeName(region: string, instanceId: string, taken: (name: string) => boolean): string {
  const domain = region === 'us-east-1' ? 'ec2.internal' : `${region}.compute.internal`;
  let address = Number.parseInt(instanceId.slice(-6), 16) || 1;
  for (;;) {
    const name = `ip-10-${(address >> 16) & 255}-${(address >> 8) & 255}-${address & 255}.${domain}`;
    if (!taken(name)) return name;
    address = (address + 1) & 0xffffff;
  }
}

function taintJson(taint: Taint): JsonObject {
  return { key: taint.key, ...(taint.value ? { value: taint.value } : {}), effect: taint.effect };
}

export class SimulatedKubelets {
  readonly #store: ObjectStore;
  readonly #clock: Clock;
  readonly #region: string;
  readonly #timings: KubeletTimings;
  readonly #boots: Boot[] = [];

  constructor(store: ObjectStore, clock: Clock, region: string, timings = DEFAULT_KUBELET_TIMINGS) {
    this.#store = store;
    this.#clock = clock;
    this.#region = region;
    this.#timings = timings;
  }

  /** The cloud launched an instance: its kubelet starts booting. */
  launched(instance: BootingInstance, context: LaunchContext): void {
    if (this.#boots.some((b) => b.instance.instanceId === instance.instanceId)) return;
    const now = this.#clock.now().getTime();
    const registerAt = now + this.#timings.registerAfterSeconds * 1000;
    const taken = (name: string) => this.#boots.some((b) => b.nodeName === name);
    this.#boots.push({
      instance,
      context,
      nodeName: nodeName(this.#region, instance.instanceId, taken),
      registerAt,
      readyAt: registerAt + this.#timings.readyAfterSeconds * 1000,
      registered: false,
    });
  }

  /** The instance is gone: its node stops reporting and turns NotReady. */
  terminated(instanceId: string): void {
    const index = this.#boots.findIndex((b) => b.instance.instanceId === instanceId);
    if (index < 0) return;
    const [boot] = this.#boots.splice(index, 1);
    const node = boot && this.#store.getShared('nodes', boot.nodeName);
    if (node !== undefined) this.#store.update('nodes', withReady(node, false));
  }

  /** Registers and readies the nodes whose time has come. */
  tick(): void {
    const now = this.#clock.now().getTime();
    for (const boot of this.#boots) {
      if (!boot.registered && now >= boot.registerAt) {
        this.#store.create('nodes', this.#nodeFor(boot));
        boot.registered = true;
      }
    }
    for (const boot of this.#boots.filter((b) => b.registered && now >= b.readyAt)) {
      const node = this.#store.getShared('nodes', boot.nodeName);
      if (node !== undefined && !isReady(node)) this.#store.update('nodes', withReady(node, true));
    }
  }

  #nodeFor({ instance, context, nodeName: name }: Boot): JsonObject {
    // The launch's own types, overlays included: a capacity overlay states what the node's
    // device plugins will advertise (GPU time-slicing), so the simulated node advertises it.
    const type = context.instanceTypes.find((it) => it.name === instance.instanceType);
    const labels = {
      ...context.labels,
      ...(type === undefined ? {} : instanceTypeLabels(type)),
      [Label.instanceType]: instance.instanceType,
      [Label.zone]: instance.zone,
      [Label.region]: this.#region,
      [Label.capacityType]: instance.capacityType,
      [Label.hostname]: name,
    };
    const taints = [UNREGISTERED_TAINT, NOT_READY, ...context.taints, ...context.startupTaints];
    return {
      metadata: { name, labels },
      spec: { providerID: instance.providerID, taints: taints.map(taintJson) },
      status: {
        capacity: capacityOf(type, 'capacity'),
        allocatable: capacityOf(type, 'allocatable'),
        conditions: [{ type: 'Ready', status: 'False', reason: 'KubeletNotReady' }],
      },
    };
  }
}

function capacityOf(type: InstanceType | undefined, which: 'capacity' | 'allocatable') {
  return type === undefined ? {} : toResourceList(type[which]);
}

function isReady(node: JsonObject): boolean {
  const conditions = ((node.status as JsonObject)?.conditions ?? []) as JsonObject[];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The kubelet reports Ready (and the node lifecycle controller lifts the not-ready taint). */
function withReady(node: JsonObject, ready: boolean): JsonObject {
  const spec = (node.spec ?? {}) as JsonObject;
  const taints = ((spec.taints ?? []) as JsonObject[]).filter((t) => t.key !== NOT_READY.key);
  const status = (node.status ?? {}) as JsonObject;
  const others = ((status.conditions ?? []) as JsonObject[]).filter((c) => c.type !== 'Ready');
  return {
    ...node,
    spec: { ...spec, taints: ready ? taints : [...taints, taintJson(NOT_READY)] },
    status: {
      ...status,
      conditions: [
        ...others,
        ready
          ? { type: 'Ready', status: 'True', reason: 'KubeletReady' }
          : { type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown' },
      ],
    },
  };
}
