/**
 * The EC2 of the simulated account (docs/design.md §9): one set of instances, capacity pools,
 * prices, network and images, on simulated time, behind both the in-process CloudProvider
 * (`SimulatedCloud`, kept for speed) and the EC2 API the deployed functions call over HTTP.
 * Whichever way an instance is launched, the world sees it: kubelets boot it, spot interruption
 * and reclaim act on it, and it takes and gives back capacity.
 */
import { createHash } from 'node:crypto';
import type { InstanceNetwork } from '../../functions/domain/instance-network.ts';
import { onDemandPrices } from '../../functions/domain/instance-types/prices.ts';
import type { CapacityType } from '../../functions/domain/labels.ts';
import type {
  PlacementGroup,
  PlacementGroupSelector,
} from '../../functions/domain/placement-group.ts';
import type { OfferingKey } from '../../functions/domain/state/unavailable-offering.ts';
import type { Clock } from '../../functions/ports/clock.ts';
import type { LaunchContext, OfferingPrices } from '../../functions/ports/cloud-provider.ts';
import { CapacityPools } from './capacity-pools.ts';
import { aliasImageId } from './simulated-images.ts';
import type { InstanceOrigin, SimulatedInstance } from './simulated-instance.ts';
import type { SimulatedReservation } from './simulated-reservations.ts';
import {
  SPOT_NOTICE_MS,
  type SpotInterruptionWarning,
  spotInterruptionWarning,
} from './spot-interruption.ts';
import { simulatedSpotPrices } from './spot-prices.ts';

export interface SimulatedEc2Options {
  readonly clock: Clock;
  readonly region: string;
  readonly zones: readonly string[];
  readonly seed: number;
  /**
   * `market` simulates spot at 30–40 % of on-demand; `list` prices spot at on-demand, as a
   * what-if plan does without live prices. @default market
   */
  readonly spotPrices?: 'market' | 'list';
  /** From launch to `running`. @default 20 */
  readonly bootSeconds?: number;
  /** Each API call waits this long first (through `sleep`, so simulations can use simulated time). */
  readonly latencyMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Tags every subnet and security group carries, as `karpenter.sh/discovery` is set on them. */
  readonly networkTags?: Readonly<Record<string, string>>;
  /** The account's placement groups, all available. @default none */
  readonly placementGroups?: readonly PlacementGroup[];
}

export type LaunchListener = (instance: SimulatedInstance, context: LaunchContext) => void;
export type TerminationListener = (instance: SimulatedInstance) => void;

/** How long before its start an instance something else launched has been running. */
const ALREADY_RUNNING_MS = 24 * 3600_000;

/** An instance already running when the simulation starts, launched by something else. */
export interface ForeignInstance {
  readonly instanceId: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: SimulatedInstance['capacityType'];
  readonly origin: Exclude<InstanceOrigin, 'nodesmith'>;
  /** Karpenter's NodeClaim and NodePool tags; none on a node group's instance. */
  readonly nodeClaim?: string;
  readonly nodePool?: string;
  readonly nodeClass?: string;
}

/** An offering chosen for a launch, at its price. */
export interface PricedOffering extends OfferingKey {
  readonly pricePerHour: number;
}

/** What a launch asks for beside its offering: who the instance is for and what it boots. */
export interface LaunchRequest {
  /** The idempotency token: the claim's name in process, CreateFleet's `ClientToken` over the API. */
  readonly token: string;
  readonly nodeClaim: string;
  readonly nodePool: string;
  readonly nodeClass: string;
  readonly imageId: string;
  /** The subnet it is launched into and the security groups its template attaches. */
  readonly network?: InstanceNetwork;
  readonly owned: boolean;
  readonly tags?: Readonly<Record<string, string>>;
}

export interface SimulatedSubnet {
  readonly id: string;
  readonly zone: string;
  readonly zoneId: string;
  readonly availableIpAddressCount: number;
  readonly tags: Readonly<Record<string, string>>;
}

export interface SimulatedSecurityGroup {
  readonly id: string;
  readonly name: string;
  readonly tags: Readonly<Record<string, string>>;
}

/** The instance state EC2 reports: `pending` until booted, then `running`, then `terminated`. */
export type InstanceStateName = 'pending' | 'running' | 'terminated';

export class SimulatedEc2 {
  readonly capacity = new CapacityPools();
  /** The account's capacity reservations (simulated-reservations.ts). */
  readonly reservations: SimulatedReservation[] = [];
  readonly prices: OfferingPrices;
  readonly options: SimulatedEc2Options;
  readonly #instances: SimulatedInstance[] = [];
  readonly #byToken = new Map<string, SimulatedInstance>();
  readonly #tags = new Map<string, Record<string, string>>();
  readonly #launchListeners: LaunchListener[] = [];
  readonly #terminationListeners: TerminationListener[] = [];
  readonly #reclaimAt = new Map<string, number>();
  #interruptions = 0;
  #throttled = 0;

  constructor(options: SimulatedEc2Options) {
    this.options = options;
    const onDemand = onDemandPrices(options.region);
    this.prices = {
      onDemand: onDemand.prices,
      spot:
        options.spotPrices === 'list'
          ? new Map()
          : simulatedSpotPrices(onDemand.prices, options.zones, options.seed),
      currency: onDemand.currency,
      onDemandSource: 'bundled',
      spotSource: options.spotPrices === 'list' ? 'none' : 'live',
      priceSource: onDemand.priceSource,
    };
  }

  /** The account's placement group with this id or name, as DescribePlacementGroups finds it. */
  placementGroup(selector: PlacementGroupSelector): PlacementGroup | undefined {
    return (this.options.placementGroups ?? []).find((group) =>
      selector.id === undefined ? group.name === selector.name : group.id === selector.id,
    );
  }

  onLaunch(listener: LaunchListener): void {
    this.#launchListeners.push(listener);
  }

  onTermination(listener: TerminationListener): void {
    this.#terminationListeners.push(listener);
  }

  /** The next `calls` API calls are refused for rate. */
  throttleNext(calls: number): void {
    this.#throttled = calls;
  }

  /** Waits the API latency; false when the call is refused for rate. */
  async admit(): Promise<boolean> {
    const latency = this.options.latencyMs ?? 0;
    if (latency > 0) await (this.options.sleep ?? defaultSleep)(latency);
    if (this.#throttled === 0) return true;
    this.#throttled -= 1;
    return false;
  }

  /** What an offering costs an hour: spot at the zone's market price, else on-demand. */
  priceOf(instanceType: string, zone: string, capacityType: CapacityType): number | undefined {
    const onDemand = this.prices.onDemand.get(instanceType);
    if (capacityType !== 'spot') return onDemand;
    return this.prices.spot.get(instanceType)?.get(zone) ?? onDemand;
  }

  subnets(): SimulatedSubnet[] {
    return this.options.zones.map((zone, index) => ({
      id: `subnet-sim-${zone}`,
      zone,
      zoneId: `${this.options.region.replace(/-/g, '').slice(0, 4)}-az${index + 1}`,
      availableIpAddressCount: 4091,
      // Named for its zone, as a VPC's subnets are, so a selector can name one.
      tags: { Name: `sim-${zone}`, ...this.options.networkTags },
    }));
  }

  securityGroups(): SimulatedSecurityGroup[] {
    return [{ id: 'sg-sim-nodes', name: 'nodes', tags: { ...this.options.networkTags } }];
  }

  /**
   * Starts an instance something else launched (Karpenter, a managed node group): it carries
   * the cluster tag but not Nodesmith's, so only `describe` finds it.
   */
  startForeign(foreign: ForeignInstance): SimulatedInstance {
    const price = this.prices.onDemand.get(foreign.instanceType) ?? 0;
    const instance: SimulatedInstance = {
      instanceId: foreign.instanceId,
      providerID: `aws:///${foreign.zone}/${foreign.instanceId}`,
      instanceType: foreign.instanceType,
      zone: foreign.zone,
      capacityType: foreign.capacityType,
      pricePerHour: price,
      nodeClaim: foreign.nodeClaim ?? '',
      nodePool: foreign.nodePool ?? '',
      nodeClass: foreign.nodeClass ?? '',
      imageId: aliasImageId('al2023', 'latest'),
      // It has been running since before the simulation began, so it is never `pending`.
      launchedAt: this.options.clock.now().getTime() - ALREADY_RUNNING_MS,
      origin: foreign.origin,
      owned: false,
    };
    this.#instances.push(instance);
    return instance;
  }

  /** Every instance ever launched, terminated ones included, in launch order. */
  instances(): readonly SimulatedInstance[] {
    return this.#instances;
  }

  find(instanceId: string): SimulatedInstance | undefined {
    return this.#instances.find((i) => i.instanceId === instanceId);
  }

  /** The instance a launch with this idempotency token started, if one did. */
  launchedFor(token: string): SimulatedInstance | undefined {
    return this.#byToken.get(token);
  }

  state(instance: SimulatedInstance): InstanceStateName {
    if (instance.terminatedAt !== undefined) return 'terminated';
    const boot = (this.options.bootSeconds ?? 20) * 1000;
    return this.options.clock.now().getTime() - instance.launchedAt >= boot ? 'running' : 'pending';
  }

  /** The tags an instance was launched or since tagged with. */
  tagsOf(instanceId: string): Readonly<Record<string, string>> {
    return this.#tags.get(instanceId) ?? {};
  }

  tag(instanceId: string, tags: Readonly<Record<string, string>>): void {
    this.#tags.set(instanceId, { ...this.#tags.get(instanceId), ...tags });
  }

  /** Takes the offering's capacity, starts the instance and tells the world it launched. */
  start(
    offering: PricedOffering,
    request: LaunchRequest,
    context: LaunchContext,
  ): SimulatedInstance {
    this.capacity.take(offering);
    // Named after the token rather than the order of calls, so concurrent launches that finish
    // in a different order still give the same instances (and the same run for a seed).
    const instanceId = `i-${createHash('sha256').update(request.token).digest('hex').slice(0, 17)}`;
    const instance: SimulatedInstance = {
      instanceId,
      providerID: `aws:///${offering.zone}/${instanceId}`,
      instanceType: offering.instanceType,
      zone: offering.zone,
      capacityType: offering.capacityType,
      pricePerHour: offering.pricePerHour,
      nodeClaim: request.nodeClaim,
      nodePool: request.nodePool,
      nodeClass: request.nodeClass,
      imageId: request.imageId,
      ...(request.network === undefined ? {} : { network: request.network }),
      launchedAt: this.options.clock.now().getTime(),
      origin: 'nodesmith',
      owned: request.owned,
    };
    this.#instances.push(instance);
    this.#byToken.set(request.token, instance);
    if (request.tags !== undefined) this.#tags.set(instanceId, { ...request.tags });
    for (const listener of this.#launchListeners) listener(instance, context);
    return instance;
  }

  /** Instances the reservation can still take: its count less those running in it. */
  availableIn(reservationId: string): number {
    const reservation = this.reservations.find((r) => r.id === reservationId);
    if (reservation === undefined) return 0;
    const running = this.#instances.filter(
      (i) => i.terminatedAt === undefined && i.network?.capacityReservationId === reservationId,
    );
    return Math.max(reservation.count - running.length, 0);
  }

  /** Terminates a running instance; one unknown or already gone is left alone. */
  terminate(instanceId: string): void {
    const instance = this.find(instanceId);
    if (instance === undefined || instance.terminatedAt !== undefined) return;
    instance.terminatedAt = this.options.clock.now().getTime();
    this.capacity.give(instance);
    for (const listener of this.#terminationListeners) listener(instance);
  }

  /**
   * Interrupts a spot instance: returns the warning EventBridge would deliver now, and the
   * instance is reclaimed two minutes of simulated time later (see `reclaim`).
   */
  interrupt(instanceId: string): SpotInterruptionWarning {
    const instance = this.find(instanceId);
    if (instance === undefined || instance.terminatedAt !== undefined) {
      throw new Error(`interrupting ${instanceId}: no such running instance`);
    }
    if (instance.capacityType !== 'spot') {
      throw new Error(`interrupting ${instanceId}: it is ${instance.capacityType}, not spot`);
    }
    const now = this.options.clock.now();
    this.#reclaimAt.set(instanceId, now.getTime() + SPOT_NOTICE_MS);
    this.#interruptions += 1;
    return spotInterruptionWarning(instance, this.options.region, now, this.#interruptions);
  }

  /** Terminates the interrupted instances whose notice has run out; returns their ids. */
  reclaim(): string[] {
    const now = this.options.clock.now().getTime();
    const due = [...this.#reclaimAt].filter(([, at]) => at <= now).map(([id]) => id);
    for (const id of due) {
      this.#reclaimAt.delete(id);
      this.terminate(id);
    }
    return due.sort();
  }
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
