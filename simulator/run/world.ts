/**
 * The simulated deployment `nodesmith simulate` runs: a Kubernetes API server over HTTP with a
 * stand-in kube-scheduler, kubelets and an audit webhook backend; the simulated cloud; a state
 * store; and Nodesmith's own handlers — the audit relay, the interruption function and the
 * controller — wired to them exactly as the Lambda composition roots wire the real adapters.
 */
import { createHash } from 'node:crypto';
import { isTerminal } from '../../functions/domain/pod.ts';
import { toPod } from '../../functions/manifests/kubernetes/pod.ts';
import type { CloudProvider } from '../../functions/ports/cloud-provider.ts';
import type { StateStore } from '../../functions/ports/state-store.ts';
import { AdmittedWrites } from '../admission/admitted-writes.ts';
import { appliedWakeWebhook } from '../admission/applied-wake-webhook.ts';
import { ValidatingAdmission } from '../admission/validating-admission.ts';
import type { JsonObject } from '../api-server/json.ts';
import type { ResourceName } from '../api-server/resource-names.ts';
import { storedConfiguration } from '../api-server/resources/validating-webhook-configurations.ts';
import { type FakeApiServer, startFakeApiServer } from '../api-server/server.ts';
import { SimulatedCloud } from '../cloud/simulated-cloud.ts';
import type { SimulatedInstance } from '../cloud/simulated-instance.ts';
import { SimulatedAuditBackend } from '../cluster/audit-backend.ts';
import { AUDIT_LOG_DELIVERY_MS, AuditLogDelivery } from '../cluster/audit-log-delivery.ts';
import { SimulatedKubelets } from '../cluster/simulated-kubelets.ts';
import { SimulatedWorkloads } from '../cluster/simulated-workloads.ts';
import { StandInScheduler } from '../cluster/stand-in-scheduler.ts';
import type { WorldFaults } from '../faults/world-faults.ts';
import { makeMemoryStateStore } from '../memory/memory-state-store.ts';
import { SimulatedClock } from '../simulated-clock.ts';
import { type QueuedWake, SimulatedWorkQueue } from '../simulated-work-queue.ts';
import { DisruptionLedger } from './disruption-ledger.ts';
import type { Termination } from './invariants.ts';
import { kubectlCreate, kubectlDelete } from './kubectl.ts';
import type { Nodesmith } from './nodesmith.ts';

/** 2026-01-05T09:00:00Z, a Monday morning: every run starts then, so runs compare. */
export const SIMULATION_START = Date.UTC(2026, 0, 5, 9, 0, 0);

/**
 * How pending pods reach the controller (docs/design.md §1.1): kube-apiserver's admission
 * webhook calls the relay, or the audit log's subscription carries audit events to it, or
 * nothing does and only the minute's schedule wakes it.
 */
export type WakePath = 'admission' | 'audit' | 'tick';

export interface WorldOptions {
  /** How pending pods wake the controller; `admission` when absent. */
  readonly wake?: WakePath;
  readonly region: string;
  readonly zones: readonly string[];
  readonly seed: number;
  /** Namespaces the workload uses, created at the start. */
  readonly namespaces: readonly string[];
  /** Deliver every wake twice, as at-least-once delivery may. */
  readonly duplicateWakes?: boolean;
  /** A state store of the caller's (DynamoDB Local); in memory when absent. */
  readonly state?: StateStore;
  /** How the simulated cloud prices spot (see Scenario.prices). */
  readonly prices?: 'market' | 'list';
  /** Invocations the due wakes are split over, run at once: passes racing for the lease. */
  readonly concurrentPasses?: number;
  /** Wraps the cloud the controller sees, to inject faults; the simulated cloud itself when absent. */
  readonly cloudSeenByController?: (cloud: SimulatedCloud) => CloudProvider;
  /** Faults injected into the run (see faults/world-faults.ts); none when absent. */
  readonly faults?: WorldFaults;
  /** The controller adopts Karpenter's nodes, as the stack's `adoptKarpenterNodes` setting. */
  readonly adoptKarpenterNodes?: boolean;
  /** The API server serves TLS, as EKS does: clients that verify it need it. */
  readonly tls?: boolean;
  /**
   * The cluster is self-managed: kube-apiserver's audit webhook posts each batch to the relay as
   * its backend flushes it, where EKS's log delivery holds it a minute.
   */
  readonly selfManaged?: boolean;
  /** Nodesmith as deployed (simulator/deployed); its handlers in this process when absent. */
  readonly deploy?: (world: World) => Promise<Nodesmith>;
}

export class World {
  readonly clock: SimulatedClock;
  readonly server: FakeApiServer;
  readonly cloud: SimulatedCloud;
  readonly state: StateStore;
  readonly queue: SimulatedWorkQueue;
  readonly scheduler: StandInScheduler;
  readonly kubelets: SimulatedKubelets;
  readonly audit: SimulatedAuditBackend;
  readonly auditLog: AuditLogDelivery;
  readonly wake: WakePath;
  readonly workloads: SimulatedWorkloads;
  readonly ledger: DisruptionLedger;
  /** Every instance terminated, with what still ran on its node then. */
  readonly terminations: Termination[] = [];
  readonly faults: WorldFaults;
  #nodesmith: Nodesmith | undefined;
  #admitted: AdmittedWrites | undefined;

  private constructor(server: FakeApiServer, options: WorldOptions, clock: SimulatedClock) {
    this.clock = clock;
    this.server = server;
    this.state = options.state ?? makeMemoryStateStore();
    this.faults = options.faults ?? {};
    this.cloud = new SimulatedCloud({
      clock,
      region: options.region,
      zones: options.zones,
      seed: options.seed,
      spotPrices: options.prices ?? 'market',
      // What the scenarios' EC2NodeClasses select their subnets and security groups by.
      networkTags: { 'karpenter.sh/discovery': 'simulated' },
    });
    const copies = this.faults.wakeCopies;
    this.queue = new SimulatedWorkQueue(clock, {
      duplicate: options.duplicateWakes ?? false,
      ...(copies ? { copies: (wake) => copies.call(this.faults, wake) } : {}),
    });
    this.scheduler = new StandInScheduler(server.store, clock);
    this.kubelets = new SimulatedKubelets(server.store, clock, options.region);
    this.cloud.onLaunch((instance, context) => {
      if (this.faults.registers?.(instance) ?? true) this.kubelets.launched(instance, context);
    });
    this.cloud.onTermination((instance) => {
      this.terminations.push(this.#termination(instance));
      this.kubelets.terminated(instance.instanceId);
    });
    this.audit = new SimulatedAuditBackend(server.store, clock);
    this.wake = options.wake ?? 'admission';
    this.auditLog = new AuditLogDelivery(clock, options.selfManaged ? 0 : AUDIT_LOG_DELIVERY_MS);
    this.workloads = new SimulatedWorkloads(server.store, clock);
    this.ledger = new DisruptionLedger(server, this.state, () => clock.now());
  }

  static async start(options: WorldOptions): Promise<World> {
    const clock = new SimulatedClock(new Date(SIMULATION_START));
    const server = await startFakeApiServer({
      now: () => clock.now(),
      namespaces: [
        ...new Set([
          'default',
          'kube-system',
          'kube-public',
          'kube-node-lease',
          ...options.namespaces,
        ]),
      ],
      ...(options.tls ? { tls: true } : {}),
    });
    const world = new World(server, options, clock);
    try {
      world.#nodesmith = options.deploy
        ? await options.deploy(world)
        : await inProcessNodesmith(world, options);
      if (world.wake === 'admission') await world.#applyWakeWebhook();
    } catch (error) {
      // A world that never started holds no port: the command ends with its error.
      await world.close();
      throw error;
    }
    return world;
  }

  /**
   * The operator applies deploy/wake-webhook.yaml as kubectl does, through the API server, which
   * validates and defaults it; from then on the admission chain calls the relay as the stored
   * configurations say.
   */
  async #applyWakeWebhook(): Promise<void> {
    const { nodesmith } = this;
    if (nodesmith.wakeUrl === undefined || nodesmith.admission === undefined) {
      throw new Error('this Nodesmith has no admission wake');
    }
    const applied = appliedWakeWebhook(await nodesmith.wakeUrl());
    await kubectlCreate(
      this.server.url,
      '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
      applied,
    );
    const { store } = this.server;
    const admission = new ValidatingAdmission({
      configurations: () =>
        store.listShared('validatingwebhookconfigurations').map(storedConfiguration),
      transport: (url, review) => nodesmith.admission?.(url, review) ?? Promise.resolve(),
      timeoutsOnWallClock: false,
      namespaceLabels: (name) => {
        const metadata = store.get('namespaces', name)?.metadata as JsonObject;
        return (metadata?.labels ?? {}) as Record<string, string>;
      },
    });
    this.#admitted = new AdmittedWrites(store, admission);
  }

  /**
   * The webhook calls of the writes made so far have been answered. When the audit log is the
   * wake path, the audit backend's batch goes to the log group and the batches CloudWatch Logs
   * delivers by now reach the relay; otherwise the batch is dropped.
   */
  async relayWrites(): Promise<void> {
    await this.#admitted?.settle();
    const batch = this.audit.flush();
    if (this.wake !== 'audit') return;
    if (batch !== undefined) this.auditLog.write(batch);
    for (const delivered of this.auditLog.delivered()) await this.relay(delivered);
  }

  /** Nodesmith's functions, as the world reaches them. */
  get nodesmith(): Nodesmith {
    if (this.#nodesmith === undefined) throw new Error('the world has not started');
    return this.#nodesmith;
  }

  #termination(instance: SimulatedInstance): Termination {
    const node = this.server.store
      .list('nodes')
      .find((n) => (n.spec as JsonObject | undefined)?.providerID === instance.providerID);
    const name = (node?.metadata as JsonObject | undefined)?.name;
    if (typeof name !== 'string') return { instance, podsLeft: [] };
    const podsLeft = this.server.store
      .list('pods')
      .map(toPod)
      .filter((p) => p.nodeName === name && !isTerminal(p) && p.ownerKind !== 'DaemonSet')
      .map((p) => `${p.namespace}/${p.name}`);
    return { instance, node: name, podsLeft };
  }

  /** Creates objects as a client of the API server would (ReplicaSet controller, kubectl). */
  create(resource: ResourceName, objects: readonly JsonObject[]): void {
    const created = objects.map((object) =>
      this.server.store.create(resource, resource === 'pods' ? withStableUid(object) : object),
    );
    if (resource === 'pods') this.workloads.want(created);
  }

  /**
   * EC2 warns that the oldest `count` running spot instances will be reclaimed in two minutes;
   * the warnings reach the interruption function through its queue. Returns the instance ids.
   */
  async interruptSpot(count: number): Promise<string[]> {
    const spot = this.cloud
      .instances()
      .filter((i) => i.terminatedAt === undefined && i.capacityType === 'spot')
      .slice(0, count);
    const bodies = spot.map((i) => JSON.stringify(this.cloud.interrupt(i.instanceId)));
    if (bodies.length === 0) return [];
    await this.nodesmith.spotWarnings(bodies);
    return spot.map((i) => i.instanceId);
  }

  /**
   * Deletes the `count` nodes running the most pods (then by name) as `kubectl delete node`
   * does, a DELETE to the API server; returns each with the finalizers that still hold it.
   */
  async deleteNodes(count: number): Promise<{ name: string; heldBy: string[] }[]> {
    if (count <= 0) return [];
    const pods = this.server.store.list('pods');
    const running = (node: string) =>
      pods.filter((p) => (p.spec as JsonObject | undefined)?.nodeName === node).length;
    const names = this.server.store
      .list('nodes')
      .map((n) => String((n.metadata as JsonObject).name))
      .sort((a, b) => running(b) - running(a) || (a < b ? -1 : 1))
      .slice(0, count);
    const deleted = [];
    for (const name of names) {
      await kubectlDelete(this.server.url, `/api/v1/nodes/${name}`);
      const held = this.server.store.get('nodes', name)?.metadata as JsonObject | undefined;
      deleted.push({ name, heldBy: (held?.finalizers ?? []) as string[] });
    }
    return deleted;
  }

  /** Seeds what the cluster holds from the start; namespaces it already has are kept. */
  seed(objects: readonly { resource: ResourceName; object: JsonObject }[]): void {
    for (const { resource, object } of objects) {
      const name = String((object.metadata as JsonObject | undefined)?.name ?? '');
      if (resource === 'namespaces' && this.server.store.get('namespaces', name)) continue;
      this.server.store.create(resource, object);
      // A seeded pod of a workload is put back by its controller when it goes, as any other.
      if (resource === 'pods') this.workloads.want([object]);
    }
  }

  /** The apiserver's audit backend sends the batch on; returns the status it got. */
  relay(eventList: JsonObject): Promise<number> {
    return this.nodesmith.audit(eventList);
  }

  /** What is due runs: the wakes the work queue holds now, and whatever else is due. */
  deliver(wakes: readonly QueuedWake[]): Promise<void> {
    return this.nodesmith.runDue(wakes);
  }

  async close(): Promise<void> {
    await this.#nodesmith?.close();
    this.#admitted?.close();
    this.audit.close();
    await this.server.close();
  }
}

/**
 * Nodesmith's handlers in this process, loaded only for such a run: with them come the
 * Kubernetes client and the adapters, which a deployed run leaves to the functions' processes.
 */
async function inProcessNodesmith(world: World, options: WorldOptions): Promise<Nodesmith> {
  const { InProcessNodesmith } = await import('./in-process-nodesmith.ts');
  return new InProcessNodesmith(world, options);
}

/**
 * The pod with a uid derived from its namespace and name. The apiserver would pick a random one;
 * the scheduler breaks ties between equal pods by uid, and a run must repeat for its seed.
 */
function withStableUid(pod: JsonObject): JsonObject {
  const meta = (pod.metadata ?? {}) as JsonObject;
  if (meta.uid !== undefined) return pod;
  const hex = createHash('sha256')
    .update(`${String(meta.namespace ?? 'default')}/${String(meta.name)}`)
    .digest('hex');
  const uid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  return { ...pod, metadata: { ...meta, uid } };
}
