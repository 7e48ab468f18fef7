/**
 * Nodesmith's handlers — the audit relay, the interruption function and the controller — run in
 * the simulation's own process, wired to the world exactly as the Lambda composition roots wire
 * the real adapters, with SQS's delivery modelled: the work queue's batches, redelivery after the
 * visibility timeout, an interruption event the function failed coming back.
 */
import { kubernetesClusterFrom } from '../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import {
  type AdmissionHandler,
  makeAdmissionHandler,
} from '../../functions/handlers/audit-relay/admission.ts';
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
import type { CloudProvider } from '../../functions/ports/cloud-provider.ts';
import type { Decision } from '../../functions/ports/decisions.ts';
import type { StateStore } from '../../functions/ports/state-store.ts';
import { CoalescingWaker } from '../../functions/use-cases/controller/coalescing-waker.ts';
import { runControllerPass } from '../../functions/use-cases/controller/controller-pass.ts';
import {
  DEFAULT_PASS_SETTINGS,
  type PassSettings,
} from '../../functions/use-cases/controller/pass-dependencies.ts';
import type { PassReport } from '../../functions/use-cases/controller/pass-report.ts';
import { handleInterruption } from '../../functions/use-cases/interruption/handle-interruption.ts';
import { relayTransport } from '../admission/relay-transport.ts';
import type { JsonObject } from '../api-server/json.ts';
import { kubeConfigFor } from '../api-server/kube-config.ts';
import type { FakeApiServer } from '../api-server/server.ts';
import type { SimulatedCloud } from '../cloud/simulated-cloud.ts';
import type { WorldFaults } from '../faults/world-faults.ts';
import { MemoryDecisionPublisher } from '../memory/memory-decision-publisher.ts';
import type { SimulatedClock } from '../simulated-clock.ts';
import type { QueuedWake, SimulatedWorkQueue } from '../simulated-work-queue.ts';
import type { DisruptionLedger } from './disruption-ledger.ts';
import { eventBridgeSqsEvent, lambdaContext, sqsEvent, webhookEvent } from './lambda-events.ts';
import type { Nodesmith } from './nodesmith.ts';

/** The bearer token the simulated apiserver's audit webhook presents. */
const AUDIT_TOKEN = 'simulated-audit-token';

/** The admission wake's path token, as the stack's WakeToken secret holds one. */
const WAKE_TOKEN = 'simulatedwaketokensimulatedwaketoken0123456789';

/** The stack's WakeWebhookUrl output in the simulated region's form. */
const wakeWebhookUrl = (region: string) =>
  `https://a1b2c3d4e5.execute-api.${region}.amazonaws.com/v1/wake/`;

/** SQS makes a message visible again this long after an invocation that failed to finish. */
const VISIBILITY_TIMEOUT_SECONDS = 30;

/** An interruption event the function failed to handle comes back this much later. */
const INTERRUPTION_RETRY_SECONDS = 10;

/** What of the world the handlers are wired to. */
export interface InProcessWorld {
  readonly clock: SimulatedClock;
  readonly server: FakeApiServer;
  readonly cloud: SimulatedCloud;
  readonly state: StateStore;
  readonly queue: SimulatedWorkQueue;
  readonly ledger: DisruptionLedger;
  readonly faults: WorldFaults;
}

export interface InProcessOptions {
  readonly region: string;
  /** Invocations the due wakes are split over, run at once: passes racing for the lease. */
  readonly concurrentPasses?: number;
  /** Wraps the cloud the controller sees, to inject faults; the simulated cloud itself when absent. */
  readonly cloudSeenByController?: (cloud: SimulatedCloud) => CloudProvider;
  /** The controller adopts Karpenter's nodes, as the stack's `adoptKarpenterNodes` setting. */
  readonly adoptKarpenterNodes?: boolean;
}

export class InProcessNodesmith implements Nodesmith {
  readonly reportsPasses = true;
  readonly passes: PassReport[] = [];
  readonly #world: InProcessWorld;
  readonly #decisions = new MemoryDecisionPublisher();
  readonly #concurrency: number;
  readonly #controller: ControllerHandler;
  readonly #relay: WebhookHandler;
  readonly #admission: ReturnType<typeof relayTransport>;
  readonly #region: string;
  readonly #interruption: InterruptionHandler;
  #relayed = 0;
  #claimCounter = 0;
  #invocations = 0;
  /** How to end each running invocation as a process exit would, by request id. */
  readonly #exits = new Map<string, () => void>();
  #interruptionDeliveries = 0;
  #interruptionRetries: { readonly dueAt: number; readonly body: string }[] = [];

  constructor(world: InProcessWorld, options: InProcessOptions) {
    this.#world = world;
    this.#concurrency = Math.max(1, options.concurrentPasses ?? 1);
    this.#controller = this.#controllerHandler(options);
    this.#interruption = this.#interruptionHandler();
    this.#relay = makeWebhookHandler({ token: async () => AUDIT_TOKEN, waker: world.queue });
    this.#admission = relayTransport(this.#admissionHandler());
    this.#region = options.region;
  }

  #admissionHandler(): AdmissionHandler {
    const world = this.#world;
    return makeAdmissionHandler({
      tokens: async () => ({ current: WAKE_TOKEN }),
      state: world.state,
      waker: world.queue,
      now: () => world.clock.now().getTime(),
    });
  }

  async wakeUrl(): Promise<string> {
    return `${wakeWebhookUrl(this.#region)}${WAKE_TOKEN}`;
  }

  /** Delivers the review to the relay's admission entry point as API Gateway's route does. */
  admission(url: string, review: JsonObject): Promise<unknown> {
    return this.#admission(url, review, 0);
  }

  decisions(): readonly Decision[] {
    return this.#decisions.published();
  }

  #controllerHandler(options: InProcessOptions): ControllerHandler {
    const world = this.#world;
    const settings: PassSettings = {
      ...DEFAULT_PASS_SETTINGS,
      region: options.region,
      ...(options.adoptKarpenterNodes ? { adoptKarpenterNodes: true } : {}),
    };
    const cluster = world.ledger.watch(
      kubernetesClusterFrom(kubeConfigFor(world.server.url), { now: () => world.clock.now() }),
    );
    const ports = {
      state: world.state,
      cluster,
      cloud: options.cloudSeenByController?.(world.cloud) ?? world.cloud,
    };
    const deps = {
      decisions: this.#decisions,
      waker: new CoalescingWaker(world.queue, world.clock),
      clock: world.clock,
      newClaimName: (pool: string) => {
        this.#claimCounter += 1;
        return `${pool}-${this.#claimCounter.toString(36).padStart(5, '0')}`;
      },
    };
    return makeControllerHandler({
      pass: async (holder) => {
        const exit = () => this.#exits.get(holder)?.();
        const seen = world.faults.controllerPorts?.(holder, ports, exit) ?? ports;
        const report = await runControllerPass({ ...deps, ...seen, holder }, settings);
        this.passes.push(report);
        return report;
      },
    });
  }

  #interruptionHandler(): InterruptionHandler {
    const world = this.#world;
    const cluster = kubernetesClusterFrom(kubeConfigFor(world.server.url), {
      now: () => world.clock.now(),
    });
    return makeInterruptionHandler({
      handle: (message) =>
        handleInterruption(
          { state: world.state, cluster, waker: world.queue, clock: world.clock },
          message,
        ),
    });
  }

  /** POSTs the batch to the audit relay as the apiserver's webhook backend does. */
  async audit(eventList: JsonObject): Promise<number> {
    this.#relayed += 1;
    const response = await this.#relay(
      webhookEvent(JSON.stringify(eventList), AUDIT_TOKEN),
      lambdaContext(`audit-relay-${this.#relayed}`),
    );
    return response.statusCode ?? 500;
  }

  /** Through EventBridge and the interruption queue: at once, or in the batches faults make. */
  async spotWarnings(bodies: readonly string[]): Promise<void> {
    const batches = this.#world.faults.interruptionBatches?.(bodies) ?? [
      { afterSeconds: 0, bodies },
    ];
    for (const batch of batches) {
      if (batch.afterSeconds > 0) this.#interruptionLater(batch.bodies, batch.afterSeconds);
      else await this.#deliverInterruptions(batch.bodies);
    }
  }

  async runDue(wakes: readonly QueuedWake[]): Promise<void> {
    await this.#retryInterruptions();
    await this.#deliver(wakes);
  }

  /** Hands the interruption function the events due now: retries and late deliveries. */
  async #retryInterruptions(): Promise<void> {
    const now = this.#world.clock.now().getTime();
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
    const dueAt = this.#world.clock.now().getTime() + afterSeconds * 1000;
    for (const body of bodies) this.#interruptionRetries.push({ dueAt, body });
  }

  /**
   * Invokes the controller function with the wakes due, as SQS batches: one, or one per
   * concurrent invocation. A failed invocation's wakes come back after the visibility timeout.
   */
  async #deliver(wakes: readonly QueuedWake[]): Promise<void> {
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
        this.#world.queue.redeliver(batch, VISIBILITY_TIMEOUT_SECONDS);
      }
    } catch {
      this.#world.queue.redeliver(batch, VISIBILITY_TIMEOUT_SECONDS);
    } finally {
      this.#exits.delete(requestId);
      // However the invocation ended, what its pass started is judged as it left the pools,
      // before anything else (an interruption, say) changes them.
      await this.#world.ledger.sampleBudgets();
    }
  }

  async close(): Promise<void> {}
}
