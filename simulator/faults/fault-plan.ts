/**
 * A run's faults, all drawn from its seed: how wakes and interruption events are delivered
 * (duplicated, late, out of order), how many controller invocations race, where invocations
 * exit part-way, how often EC2 throttles, which Kubernetes requests fail, and which nodes never
 * register. The same seed draws the same plan; what each fault hits is counted as it happens.
 */

import type { Wake } from '../../functions/ports/wake.ts';
import type { FakeApiServer } from '../api-server/server.ts';
import type { SimulatedCloud } from '../cloud/simulated-cloud.ts';
import { type Random, seededRandom } from '../scenarios/random.ts';
import { ControllerFaults, type ExitPoint } from './controller-faults.ts';
import { FAULT_INSTANCE_TYPES } from './fault-scenario.ts';
import { FaultTally } from './fault-tally.ts';
import { KubernetesFaults, planKubernetesFaults } from './kubernetes-faults.ts';
import type { ControllerPorts, InterruptionBatch, WorldFaults } from './world-faults.ts';

/**
 * The port calls that make up launch and termination, and the pass around them: a process exit
 * is planned before or after one of these (or at a call counted over all of them).
 */
export const STEP_CALLS = [
  'state.lease.acquire',
  'cluster.snapshot',
  'cloud.listManaged',
  'state.nodeClaims.create',
  'cloud.launch',
  'state.unavailableOfferings.mark',
  'state.nodeClaims.update',
  'cluster.patchNodeMetadata',
  'cluster.addTaints',
  'cluster.removeTaints',
  'cluster.evict',
  'cluster.deletePod',
  'cloud.terminate',
  'cluster.deleteNode',
  'state.nodeClaims.delete',
  'state.lease.release',
] as const;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function planExits(random: Random): ExitPoint[] {
  const count = Math.floor(random() * 4);
  return Array.from({ length: count }, () => {
    const when = random() < 0.5 ? 'before' : 'after';
    return random() < 0.8
      ? { call: pick(random, STEP_CALLS), occurrence: 1 + Math.floor(random() * 3), when }
      : { occurrence: 1 + Math.floor(random() * 600), when };
  });
}

export interface FaultPlanSummary {
  readonly concurrentPasses: number;
  readonly exits: readonly ExitPoint[];
  readonly throttleRate: number;
  readonly duplicateRate: number;
  readonly lateRate: number;
  readonly neverRegisterRate: number;
  readonly kubernetesFaults: number;
  /** Spot capacity runs out in one more zone at this second, if at all. */
  readonly spotLoss?: { readonly at: number; readonly zone: string };
}

/** Separate streams, so a fault drawn during the run does not shift the draws of another kind. */
function streams(seed: number) {
  const stream = (n: number) => seededRandom((seed ^ Math.imul(n, 0x9e3779b1)) >>> 0);
  return {
    plan: stream(1),
    wakes: stream(2),
    cloud: stream(3),
    kubelets: stream(4),
    events: stream(5),
  };
}

export class FaultPlan implements WorldFaults {
  readonly tally = new FaultTally();
  readonly summary: FaultPlanSummary;
  readonly #random: ReturnType<typeof streams>;
  readonly #controller: ControllerFaults;
  readonly #kubernetes: KubernetesFaults;
  #neverRegistered = 0;
  #second = -1;
  #invocationsThisSecond = 0;

  /** `activeSeconds`: how long the cluster is busy, the span Kubernetes faults are armed in. */
  constructor(seed: number, activeSeconds: number, zones: readonly string[]) {
    this.#random = streams(seed);
    const random = this.#random.plan;
    const exits = planExits(random);
    const throttleRate = random() < 0.5 ? 0 : 0.02 + random() * 0.18;
    const kubernetes = planKubernetesFaults(random, Math.floor(random() * 9), activeSeconds);
    this.summary = {
      concurrentPasses: 1 + Math.floor(random() * 3),
      exits,
      throttleRate,
      duplicateRate: random() * 0.5,
      lateRate: random() * 0.3,
      neverRegisterRate: random() < 0.85 ? 0 : 0.2,
      kubernetesFaults: kubernetes.length,
      ...(random() < 0.4
        ? { spotLoss: { at: Math.floor(random() * activeSeconds), zone: pick(random, zones) } }
        : {}),
    };
    this.#controller = new ControllerFaults(
      { exits, throttleRate },
      this.tally,
      this.#random.cloud,
    );
    this.#kubernetes = new KubernetesFaults(kubernetes);
  }

  controllerPorts(_invocation: string, ports: ControllerPorts, exit: () => void): ControllerPorts {
    this.#invocationsThisSecond += 1;
    if (this.#invocationsThisSecond > 1) this.tally.add('concurrent pass');
    return this.#controller.ports(ports, exit);
  }

  wakeCopies(_wake: Wake): readonly number[] {
    const random = this.#random.wakes;
    const late = () => (random() < this.summary.lateRate ? 1000 + random() * 7000 : 0);
    const copies = [late()];
    if (random() < this.summary.duplicateRate) copies.push(late());
    this.tally.add('wake duplicated', copies.length - 1);
    this.tally.add('wake delivered late', copies.filter((ms) => ms > 0).length);
    return copies;
  }

  /** Some events twice, in a shuffled order, in one or two batches; the second maybe late. */
  interruptionBatches(bodies: readonly string[]): readonly InterruptionBatch[] {
    const random = this.#random.events;
    const copies = bodies.flatMap((body) => (random() < 0.5 ? [body, body] : [body]));
    this.tally.add('interruption event duplicated', copies.length - bodies.length);
    const order = shuffled(random, copies);
    if (order.some((body, i) => body !== copies[i]))
      this.tally.add('interruption events reordered');
    const cut = Math.floor(random() * order.length);
    if (cut === 0) return [{ afterSeconds: 0, bodies: order }];
    const late = random() < 0.5 ? 20 + Math.floor(random() * 180) : 0;
    if (late > 0) this.tally.add('interruption event delivered late', order.length - cut);
    return [
      { afterSeconds: 0, bodies: order.slice(0, cut) },
      { afterSeconds: late, bodies: order.slice(cut) },
    ];
  }

  registers(): boolean {
    const random = this.#random.kubelets;
    if (this.#neverRegistered >= 2 || random() >= this.summary.neverRegisterRate) return true;
    this.#neverRegistered += 1;
    this.tally.add('node never registers');
    return false;
  }

  second(
    t: number,
    world: { readonly server: FakeApiServer; readonly cloud: SimulatedCloud },
  ): void {
    if (t !== this.#second) {
      this.#second = t;
      this.#invocationsThisSecond = 0;
    }
    this.#kubernetes.second(t, world.server);
    const loss = this.summary.spotLoss;
    if (loss?.at === t) {
      for (const instanceType of FAULT_INSTANCE_TYPES) {
        world.cloud.capacity.set({ instanceType, zone: loss.zone, capacityType: 'spot' }, 0);
      }
      this.tally.add('spot capacity lost in a zone');
    }
  }

  /** Counts by kind of the faults that took effect; call once, at the end of the run. */
  injected(): Readonly<Record<string, number>> {
    this.#kubernetes.tallyInto(this.tally);
    return this.tally.counts();
  }
}
