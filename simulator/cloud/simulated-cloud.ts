/**
 * The simulated cloud behind `nodesmith simulate` and the end-to-end tests (docs/design.md §6.4,
 * §9): the CloudProvider port over the bundled catalog and prices, on simulated time. Launches are
 * idempotent by claim name as CreateFleet is by ClientToken, fill the cheapest offering that
 * still has capacity and report the ones that had none, and instances run after a boot delay.
 * Capacity, throttling and API latency can be set to exercise the controller's fallbacks.
 */
import { createHash } from 'node:crypto';
import type { InstanceType } from '../../functions/domain/instance-type.ts';
import { BUNDLED_CATALOG } from '../../functions/domain/instance-types/bundled-catalog.ts';
import { buildInstanceTypes } from '../../functions/domain/instance-types/instance-types.ts';
import { offeringKey } from '../../functions/domain/instance-types/offerings.ts';
import { onDemandPrices } from '../../functions/domain/instance-types/prices.ts';
import { KeptValues } from '../../functions/domain/kept-values.ts';
import { Label } from '../../functions/domain/labels.ts';
import { has } from '../../functions/domain/requirements/requirement.ts';
import { fromNodeSelector, get } from '../../functions/domain/requirements/requirements.ts';
import type { NodeClaimRecord } from '../../functions/domain/state/node-claim-record.ts';
import type { OfferingKey } from '../../functions/domain/state/unavailable-offering.ts';
import type { Clock } from '../../functions/ports/clock.ts';
import type {
  CloudProvider,
  InstanceTypeOptions,
  LaunchableNodeClass,
  LaunchContext,
  LaunchResult,
  ManagedInstance,
  OfferingPrices,
  ResolvedNodeClass,
} from '../../functions/ports/cloud-provider.ts';
import {
  InsufficientCapacityError,
  InvalidConfigError,
  ThrottledError,
} from '../../functions/ports/errors.ts';
import { CapacityPools } from './capacity-pools.ts';
import { aliasImageId } from './simulated-images.ts';
import type { InstanceOrigin, SimulatedInstance } from './simulated-instance.ts';
import {
  SPOT_NOTICE_MS,
  type SpotInterruptionWarning,
  spotInterruptionWarning,
} from './spot-interruption.ts';
import { simulatedSpotPrices } from './spot-prices.ts';

export interface SimulatedCloudOptions {
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
}

export type LaunchListener = (instance: SimulatedInstance, context: LaunchContext) => void;

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
export type TerminationListener = (instance: SimulatedInstance) => void;

interface Candidate extends OfferingKey {
  readonly pricePerHour: number;
}

/** Offerings of the claim's types in its zones and capacity type, cheapest first. */
function candidates(claim: NodeClaimRecord, types: readonly InstanceType[]): Candidate[] {
  const requirements = fromNodeSelector(claim.requirements);
  const zones = get(requirements, Label.zone);
  const capacityTypes = get(requirements, Label.capacityType);
  return types
    .flatMap((it) =>
      it.offerings
        .filter((o) => o.available && has(zones, o.zone) && has(capacityTypes, o.capacityType))
        .map((o) => ({
          instanceType: it.name,
          zone: o.zone,
          capacityType: o.capacityType,
          pricePerHour: o.pricePerHour,
        })),
    )
    .sort(
      (a, b) =>
        a.pricePerHour - b.pricePerHour ||
        (a.instanceType < b.instanceType ? -1 : a.instanceType > b.instanceType ? 1 : 0) ||
        (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0),
    );
}

/** A long run meets many sets of unavailable offerings: past this many, all start over. */
const MAX_BUILT_LISTS = 32;

export class SimulatedCloud implements CloudProvider {
  readonly capacity = new CapacityPools();
  readonly #options: SimulatedCloudOptions;
  readonly #prices: OfferingPrices;
  readonly #instances: SimulatedInstance[] = [];
  readonly #byClaim = new Map<string, SimulatedInstance>();
  readonly #launchListeners: LaunchListener[] = [];
  readonly #terminationListeners: TerminationListener[] = [];
  readonly #reclaimAt = new Map<string, number>();
  /**
   * Built lists by class and unavailable offerings: the catalog and prices never change here.
   * Karpenter keeps built instance types the same way, keyed by what they are built from
   * (aws: pkg/providers/instancetype/instancetype.go, `List`).
   */
  readonly #builtTypes = new KeptValues<readonly InstanceType[]>(MAX_BUILT_LISTS);
  #interruptions = 0;
  #throttled = 0;
  #launchCalls = 0;

  constructor(options: SimulatedCloudOptions) {
    this.#options = options;
    const onDemand = onDemandPrices(options.region);
    this.#prices = {
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

  /**
   * Starts an instance something else launched (Karpenter, a managed node group): it carries
   * the cluster tag but not Nodesmith's, so only `describe` finds it.
   */
  startForeign(foreign: ForeignInstance): SimulatedInstance {
    const price = this.#prices.onDemand.get(foreign.instanceType) ?? 0;
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
      launchedAt: this.#options.clock.now().getTime() - ALREADY_RUNNING_MS,
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

  /**
   * Interrupts a spot instance: returns the warning EventBridge would deliver now, and the
   * instance is reclaimed two minutes of simulated time later (see `reclaim`).
   */
  interrupt(instanceId: string): SpotInterruptionWarning {
    const instance = this.#instances.find((i) => i.instanceId === instanceId);
    if (instance === undefined || instance.terminatedAt !== undefined) {
      throw new Error(`interrupting ${instanceId}: no such running instance`);
    }
    if (instance.capacityType !== 'spot') {
      throw new Error(`interrupting ${instanceId}: it is ${instance.capacityType}, not spot`);
    }
    const now = this.#options.clock.now();
    this.#reclaimAt.set(instanceId, now.getTime() + SPOT_NOTICE_MS);
    this.#interruptions += 1;
    return spotInterruptionWarning(instance, this.#options.region, now, this.#interruptions);
  }

  /** Terminates the interrupted instances whose notice has run out; returns their ids. */
  reclaim(): string[] {
    const now = this.#options.clock.now().getTime();
    const due = [...this.#reclaimAt].filter(([, at]) => at <= now).map(([id]) => id);
    for (const id of due) {
      this.#reclaimAt.delete(id);
      const instance = this.#instances.find((i) => i.instanceId === id);
      if (instance === undefined || instance.terminatedAt !== undefined) continue;
      instance.terminatedAt = now;
      this.capacity.give(instance);
      for (const listener of this.#terminationListeners) listener(instance);
    }
    return due.sort();
  }

  /** Launch calls made, repeats of a claim included. */
  get launchCalls(): number {
    return this.#launchCalls;
  }

  async resolveNodeClass(nodeClass: LaunchableNodeClass): Promise<ResolvedNodeClass> {
    await this.#call();
    return {
      name: nodeClass.metadata.name,
      amiFamily: 'AL2023',
      subnets: this.#options.zones.map((zone) => ({
        id: `subnet-sim-${zone}`,
        zone,
        availableIpAddressCount: 4091,
      })),
      securityGroups: [{ id: 'sg-sim-nodes', name: 'nodes' }],
      amis: [{ id: simulatedAmi(nodeClass), name: 'simulated-al2023', requirements: [] }],
      instanceProfile: `${nodeClass.metadata.name}-simulated`,
    };
  }

  async instanceTypes(
    nodeClass: LaunchableNodeClass,
    options: InstanceTypeOptions = {},
  ): Promise<readonly InstanceType[]> {
    await this.#call();
    const unavailable = (options.unavailable ?? []).map((o) =>
      offeringKey(o.instanceType, o.zone, o.capacityType),
    );
    const key = JSON.stringify([nodeClass, [...unavailable].sort()]);
    return this.#builtTypes.get(key, () =>
      buildInstanceTypes({
        catalog: BUNDLED_CATALOG,
        region: this.#options.region,
        prices: this.#prices.onDemand,
        spotPrices: this.#prices.spot,
        currency: this.#prices.currency,
        zones: this.#options.zones,
        unavailable: new Set(unavailable),
        nodeClass,
      }),
    );
  }

  async prices(): Promise<OfferingPrices> {
    return this.#prices;
  }

  async launch(claim: NodeClaimRecord, context: LaunchContext): Promise<LaunchResult> {
    this.#launchCalls += 1;
    await this.#call();
    const existing = this.#byClaim.get(claim.name);
    if (existing !== undefined) return this.#result(existing, []);
    const offerings = candidates(claim, context.instanceTypes);
    if (offerings.length === 0) {
      throw new InvalidConfigError(
        `launching ${claim.name}: no offering of its instance types matches its zones and capacity type`,
      );
    }
    const full = offerings.filter((o) => !this.capacity.has(o));
    const chosen = offerings.find((o) => this.capacity.has(o));
    if (chosen === undefined) {
      throw new InsufficientCapacityError(
        `launching ${claim.name}: no capacity for any of ${offerings.length} offerings`,
        full.map(({ instanceType, zone, capacityType }) => ({ instanceType, zone, capacityType })),
      );
    }
    const instance = this.#start(claim, chosen, simulatedAmi(context.nodeClass));
    for (const listener of this.#launchListeners) listener(instance, context);
    const skipped = full.filter((o) => o.pricePerHour <= chosen.pricePerHour);
    return this.#result(
      instance,
      skipped.map(({ instanceType, zone, capacityType }) => ({ instanceType, zone, capacityType })),
    );
  }

  async terminate(instanceId: string): Promise<void> {
    await this.#call();
    const instance = this.#instances.find((i) => i.instanceId === instanceId);
    if (instance === undefined || instance.terminatedAt !== undefined) return;
    instance.terminatedAt = this.#options.clock.now().getTime();
    this.capacity.give(instance);
    for (const listener of this.#terminationListeners) listener(instance);
  }

  async listManaged(): Promise<readonly ManagedInstance[]> {
    await this.#call();
    return this.#listed((i) => i.owned);
  }

  async describe(instanceIds: readonly string[]): Promise<readonly ManagedInstance[]> {
    await this.#call();
    const wanted = new Set(instanceIds);
    return this.#listed((i) => wanted.has(i.instanceId));
  }

  async claimOwnership(instanceIds: readonly string[]): Promise<void> {
    await this.#call();
    const wanted = new Set(instanceIds);
    for (const i of this.#instances) if (wanted.has(i.instanceId)) i.owned = true;
  }

  #listed(which: (instance: SimulatedInstance) => boolean): ManagedInstance[] {
    const now = this.#options.clock.now().getTime();
    const boot = (this.#options.bootSeconds ?? 20) * 1000;
    return this.#instances
      .filter((i) => i.terminatedAt === undefined && which(i))
      .map((i) => ({
        ...this.#launched(i),
        state: now - i.launchedAt >= boot ? 'running' : 'pending',
        ...(i.nodeClaim === '' ? {} : { nodeClaim: i.nodeClaim }),
        ...(i.nodePool === '' ? {} : { nodePool: i.nodePool }),
        ...(i.nodeClass === '' ? {} : { nodeClass: i.nodeClass }),
        owned: i.owned,
      }))
      .sort((a, b) => (a.instanceId < b.instanceId ? -1 : 1));
  }

  #start(claim: NodeClaimRecord, offering: Candidate, imageId: string): SimulatedInstance {
    this.capacity.take(offering);
    // Named after the claim rather than the order of calls, so concurrent launches that finish
    // in a different order still give the same instances (and the same run for a seed).
    const instanceId = `i-${createHash('sha256').update(claim.name).digest('hex').slice(0, 17)}`;
    const instance: SimulatedInstance = {
      instanceId,
      providerID: `aws:///${offering.zone}/${instanceId}`,
      instanceType: offering.instanceType,
      zone: offering.zone,
      capacityType: offering.capacityType,
      pricePerHour: offering.pricePerHour,
      nodeClaim: claim.name,
      nodePool: claim.nodePool,
      nodeClass: claim.nodeClass,
      imageId,
      launchedAt: this.#options.clock.now().getTime(),
      origin: 'nodesmith',
      owned: true,
    };
    this.#instances.push(instance);
    this.#byClaim.set(claim.name, instance);
    return instance;
  }

  #launched(instance: SimulatedInstance) {
    return {
      instanceId: instance.instanceId,
      providerID: instance.providerID,
      instanceType: instance.instanceType,
      zone: instance.zone,
      capacityType: instance.capacityType,
      launchTime: new Date(instance.launchedAt).toISOString(),
      imageId: instance.imageId,
    };
  }

  #result(instance: SimulatedInstance, skipped: readonly OfferingKey[]): LaunchResult {
    return skipped.length === 0
      ? this.#launched(instance)
      : { ...this.#launched(instance), unavailableOfferings: skipped };
  }

  async #call(): Promise<void> {
    const latency = this.#options.latencyMs ?? 0;
    if (latency > 0) await (this.#options.sleep ?? defaultSleep)(latency);
    if (this.#throttled > 0) {
      this.#throttled -= 1;
      throw new ThrottledError('calling the simulated cloud: request limit exceeded');
    }
  }
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The AMI a class's selector terms resolve to here: an id term names it; an alias gives its
 * family's image at that version (simulated-images.ts), `@latest` the current one. A class that
 * changes its terms therefore changes the AMI, as a new release does.
 */
export function simulatedAmi(nodeClass: LaunchableNodeClass): string {
  const terms = nodeClass.spec.amiSelectorTerms ?? [];
  const id = terms.find((t) => t.id !== undefined)?.id;
  if (id !== undefined) return id;
  const alias = terms.find((t) => t.alias !== undefined)?.alias ?? 'al2023@latest';
  const [family = 'al2023', version = 'latest'] = alias.split('@');
  return aliasImageId(family, version);
}
