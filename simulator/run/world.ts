/**
 * The simulated deployment `nodesmith simulate` runs: a Kubernetes API server over HTTP with a
 * stand-in kube-scheduler, kubelets and an audit webhook backend; the simulated cloud; a state
 * store; and Nodesmith's own handlers — the audit relay, the interruption function and the
 * controller — wired to them exactly as the Lambda composition roots wire the real adapters.
 */
import { createHash } from 'node:crypto';
import { kubernetesClusterFrom } from '../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import { isTerminal } from '../../functions/domain/pod.ts';
import {
  makeWebhookHandler,
  type WebhookHandler,
} from '../../functions/handlers/audit-relay/handler.ts';
import {
  type ControllerHandler,
  makeControllerHandler,
} from '../../functions/handlers/controller/handler.ts';
import {
  type InterruptionHandler,
  makeInterruptionHandler,
} from '../../functions/handlers/interruption/handler.ts';
import { toPod } from '../../functions/manifests/kubernetes/pod.ts';
import type { CloudProvider } from '../../functions/ports/cloud-provider.ts';
import type { StateStore } from '../../functions/ports/state-store.ts';
import { runControllerPass } from '../../functions/use-cases/controller/controller-pass.ts';
import {
  DEFAULT_PASS_SETTINGS,
  type PassSettings,
} from '../../functions/use-cases/controller/pass-dependencies.ts';
import type { PassReport } from '../../functions/use-cases/controller/pass-report.ts';
import type { InterruptionOutcome } from '../../functions/use-cases/interruption/handle-interruption.ts';
import { handleInterruption } from '../../functions/use-cases/interruption/handle-interruption.ts';
import type { JsonObject } from '../api-server/json.ts';
import { kubeConfigFor } from '../api-server/kube-config.ts';
import type { ResourceName } from '../api-server/resource-names.ts';
import { type FakeApiServer, startFakeApiServer } from '../api-server/server.ts';
import { SimulatedCloud } from '../cloud/simulated-cloud.ts';
import type { SimulatedInstance } from '../cloud/simulated-instance.ts';
import { SimulatedAuditBackend } from '../cluster/audit-backend.ts';
import { SimulatedKubelets } from '../cluster/simulated-kubelets.ts';
import { SimulatedWorkloads } from '../cluster/simulated-workloads.ts';
import { StandInScheduler } from '../cluster/stand-in-scheduler.ts';
import type { WorldFaults } from '../faults/world-faults.ts';
import { MemoryDecisionPublisher } from '../memory/memory-decision-publisher.ts';
import { makeMemoryStateStore } from '../memory/memory-state-store.ts';
import { SimulatedClock } from '../simulated-clock.ts';
import { type QueuedWake, SimulatedWorkQueue } from '../simulated-work-queue.ts';
import { DisruptionLedger } from './disruption-ledger.ts';
import type { Termination } from './invariants.ts';
import { eventBridgeSqsEvent, lambdaContext, sqsEvent, webhookEvent } from './lambda-events.ts';

/** The bearer token the simulated apiserver's audit webhook presents. */
const AUDIT_TOKEN = 'simulated-audit-token';

/** 2026-01-05T09:00:00Z, a Monday morning: every run starts then, so runs compare. */
export const SIMULATION_START = Date.UTC(2026, 0, 5, 9, 0, 0);

export interface WorldOptions {
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
}

/** SQS makes a message visible again this long after an invocation that failed to finish. */
const VISIBILITY_TIMEOUT_SECONDS = 30;

/** An interruption event the function failed to handle comes back this much later. */
const INTERRUPTION_RETRY_SECONDS = 10;

export class World {
  readonly clock: SimulatedClock;
  readonly server: FakeApiServer;
  readonly cloud: SimulatedCloud;
  readonly state: StateStore;
  readonly queue: SimulatedWorkQueue;
  readonly scheduler: StandInScheduler;
  readonly kubelets: SimulatedKubelets;
  readonly audit: SimulatedAuditBackend;
  readonly workloads: SimulatedWorkloads;
  readonly decisions = new MemoryDecisionPublisher();
  readonly ledger: DisruptionLedger;
  /** What the interruption function did with each event it was handed. */
  readonly interruptions: InterruptionOutcome[] = [];
  readonly passes: PassReport[] = [];
  /** Every instance terminated, with what still ran on its node then. */
  readonly terminations: Termination[] = [];
  /** Errors of controller invocations that failed (their wakes were redelivered). */
  readonly failedInvocations: unknown[] = [];
  readonly faults: WorldFaults;
  readonly #concurrency: number;
  readonly #controller: ControllerHandler;
  readonly #relay: WebhookHandler;
  readonly #interruption: InterruptionHandler;
  #relayed = 0;
  #claimCounter = 0;
  #invocations = 0;
  /** How to end each running invocation as a process exit would, by request id. */
  readonly #exits = new Map<string, () => void>();
  #interruptionDeliveries = 0;
  #interruptionRetries: { readonly dueAt: number; readonly body: string }[] = [];

  private constructor(server: FakeApiServer, options: WorldOptions, clock: SimulatedClock) {
    this.clock = clock;
    this.server = server;
    this.state = options.state ?? makeMemoryStateStore();
    this.faults = options.faults ?? {};
    this.#concurrency = Math.max(1, options.concurrentPasses ?? 1);
    this.cloud = new SimulatedCloud({
      clock,
      region: options.region,
      zones: options.zones,
      seed: options.seed,
      spotPrices: options.prices ?? 'market',
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
    this.workloads = new SimulatedWorkloads(server.store, clock);
    this.ledger = new DisruptionLedger(server, this.state, () => clock.now());
    this.#controller = this.#controllerHandler(options);
    this.#interruption = this.#interruptionHandler();
    this.#relay = makeWebhookHandler({
      token: async () => AUDIT_TOKEN,
      waker: this.queue,
    });
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
    });
    return new World(server, options, clock);
  }

  #controllerHandler(options: WorldOptions): ControllerHandler {
    const settings: PassSettings = {
      ...DEFAULT_PASS_SETTINGS,
      region: options.region,
      ...(options.adoptKarpenterNodes ? { adoptKarpenterNodes: true } : {}),
    };
    const cluster = this.ledger.watch(
      kubernetesClusterFrom(kubeConfigFor(this.server.url), { now: () => this.clock.now() }),
    );
    const ports = {
      state: this.state,
      cluster,
      cloud: options.cloudSeenByController?.(this.cloud) ?? this.cloud,
    };
    const deps = {
      decisions: this.decisions,
      waker: this.queue,
      clock: this.clock,
      newClaimName: (pool: string) => {
        this.#claimCounter += 1;
        return `${pool}-${this.#claimCounter.toString(36).padStart(5, '0')}`;
      },
    };
    return makeControllerHandler({
      pass: async (holder) => {
        const exit = () => this.#exits.get(holder)?.();
        const seen = this.faults.controllerPorts?.(holder, ports, exit) ?? ports;
        const report = await runControllerPass({ ...deps, ...seen, holder }, settings);
        this.passes.push(report);
        await this.ledger.sampleBudgets();
        return report;
      },
    });
  }

  #interruptionHandler(): InterruptionHandler {
    const cluster = kubernetesClusterFrom(kubeConfigFor(this.server.url), {
      now: () => this.clock.now(),
    });
    return makeInterruptionHandler({
      handle: async (message) => {
        const deps = { state: this.state, cluster, waker: this.queue, clock: this.clock };
        const outcome = await handleInterruption(deps, message);
        this.interruptions.push(outcome);
        return outcome;
      },
    });
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
    const batches = this.faults.interruptionBatches?.(bodies) ?? [{ afterSeconds: 0, bodies }];
    for (const batch of batches) {
      if (batch.afterSeconds > 0) this.#interruptionLater(batch.bodies, batch.afterSeconds);
      else await this.#deliverInterruptions(batch.bodies);
    }
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

  /** Hands the interruption function the events due now: retries and late deliveries. */
  async retryInterruptions(): Promise<void> {
    const now = this.clock.now().getTime();
    const due = this.#interruptionRetries.filter((r) => r.dueAt <= now).map((r) => r.body);
    if (due.length === 0) return;
    this.#interruptionRetries = this.#interruptionRetries.filter((r) => r.dueAt > now);
    await this.#deliverInterruptions(due);
  }

  /** One SQS batch to the interruption function; the items it reports failed come back later. */
  async #deliverInterruptions(bodies: readonly string[]): Promise<void> {
    const event = eventBridgeSqsEvent(bodies);
    const response = await this.#interruption(
      event,
      lambdaContext(`interruption-${++this.#interruptionDeliveries}`),
    );
    const failed = response.batchItemFailures.flatMap(
      (failure) => event.Records.find((r) => r.messageId === failure.itemIdentifier)?.body ?? [],
    );
    this.#interruptionLater(failed, INTERRUPTION_RETRY_SECONDS);
  }

  #interruptionLater(bodies: readonly string[], afterSeconds: number): void {
    const dueAt = this.clock.now().getTime() + afterSeconds * 1000;
    for (const body of bodies) this.#interruptionRetries.push({ dueAt, body });
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

  /** POSTs the batch to the audit relay as the apiserver's webhook backend does; returns the status. */
  async relay(eventList: JsonObject): Promise<number> {
    this.#relayed += 1;
    const response = await this.#relay(
      webhookEvent(JSON.stringify(eventList), AUDIT_TOKEN),
      lambdaContext(`audit-relay-${this.#relayed}`),
    );
    return response.statusCode ?? 500;
  }

  /**
   * Invokes the controller function with the wakes due, as SQS batches: one, or one per
   * concurrent invocation. A failed invocation's wakes come back after the visibility timeout.
   */
  async deliver(wakes: readonly QueuedWake[]): Promise<void> {
    if (wakes.length === 0) return;
    const lanes = Math.min(this.#concurrency, wakes.length);
    const batches = Array.from({ length: lanes }, (_, lane) =>
      wakes.filter((_, i) => i % lanes === lane),
    );
    await Promise.all(batches.map((batch) => this.#invoke(batch)));
  }

  async #invoke(batch: readonly QueuedWake[]): Promise<void> {
    this.#invocations += 1;
    const requestId = `controller-${this.#invocations}`;
    const exited = new Promise<'exited'>((resolve) => {
      this.#exits.set(requestId, () => resolve('exited'));
    });
    try {
      const invocation = this.#controller(sqsEvent(batch), lambdaContext(requestId));
      if ((await Promise.race([invocation, exited])) === 'exited') {
        // The process is gone: nothing the invocation still does is seen by anyone.
        invocation.catch(() => undefined);
        this.queue.redeliver(batch, VISIBILITY_TIMEOUT_SECONDS);
      }
    } catch (err) {
      this.failedInvocations.push(err);
      this.queue.redeliver(batch, VISIBILITY_TIMEOUT_SECONDS);
    } finally {
      this.#exits.delete(requestId);
    }
  }

  async close(): Promise<void> {
    this.audit.close();
    await this.server.close();
  }
}

/** The request `kubectl delete` sends: a DELETE with background propagation. */
async function kubectlDelete(serverUrl: string, path: string): Promise<void> {
  const response = await fetch(`${serverUrl}${path}`, {
    method: 'DELETE',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      propagationPolicy: 'Background',
    }),
  });
  if (!response.ok) throw new Error(`kubectl delete ${path}: ${response.status}`);
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
