/**
 * The simulated cloud behind `nodesmith simulate` and the end-to-end tests (docs/design.md §6.4,
 * §9): the CloudProvider port over the bundled catalog and prices, on simulated time. Launches are
 * idempotent by claim name as CreateFleet is by ClientToken, fill the cheapest offering that
 * still has capacity and report the ones that had none, and instances run after a boot delay.
 * Capacity, throttling and API latency can be set to exercise the controller's fallbacks. Its
 * instances, capacity and prices are those of the account's EC2 (`SimulatedEc2`), which the EC2
 * API serves to deployed functions.
 */
import type { CapacityReservation } from '../../functions/domain/capacity-reservation.ts';
import type { InstanceNetwork } from '../../functions/domain/instance-network.ts';
import type { InstanceType } from '../../functions/domain/instance-type.ts';
import { BUNDLED_CATALOG } from '../../functions/domain/instance-types/bundled-catalog.ts';
import { buildInstanceTypes } from '../../functions/domain/instance-types/instance-types.ts';
import { offeringKey } from '../../functions/domain/instance-types/offerings.ts';
import type { InstanceStatus } from '../../functions/domain/interruption/instance-status.ts';
import { KeptValues } from '../../functions/domain/kept-values.ts';
import { Label } from '../../functions/domain/labels.ts';
import type { PlacementGroup } from '../../functions/domain/placement-group.ts';
import { has } from '../../functions/domain/requirements/requirement.ts';
import { fromNodeSelector, get } from '../../functions/domain/requirements/requirements.ts';
import type { NodeClaimRecord } from '../../functions/domain/state/node-claim-record.ts';
import type { OfferingKey } from '../../functions/domain/state/unavailable-offering.ts';
import type {
  CloudProvider,
  InstanceTypeOptions,
  LaunchableNodeClass,
  LaunchContext,
  LaunchResult,
  ManagedInstance,
  OfferingPrices,
  ResolvedNodeClass,
  ResolvedNodeClassSubnet,
} from '../../functions/ports/cloud-provider.ts';
import {
  InsufficientCapacityError,
  InvalidConfigError,
  NodeClassNotReadyError,
  ThrottledError,
} from '../../functions/ports/errors.ts';
import type { CapacityPools } from './capacity-pools.ts';
import {
  type ForeignInstance,
  type LaunchListener,
  type PricedOffering,
  SimulatedEc2,
  type SimulatedEc2Options,
  type TerminationListener,
} from './simulated-ec2.ts';
import { aliasImageId } from './simulated-images.ts';
import type { SimulatedInstance } from './simulated-instance.ts';
import { selectedSecurityGroups, selectedSubnets } from './simulated-network.ts';
import { asStatus, isActive, selects } from './simulated-reservations.ts';
import type { SpotInterruptionWarning } from './spot-interruption.ts';

export type SimulatedCloudOptions = SimulatedEc2Options;
export type { ForeignInstance, LaunchListener, TerminationListener };

type Candidate = PricedOffering;

/** The offering a capacity error names: a reserved one with its reservation. */
function keyOf({ instanceType, zone, capacityType, reservationId }: Candidate): OfferingKey {
  return {
    instanceType,
    zone,
    capacityType,
    ...(reservationId === undefined ? {} : { reservationId }),
  };
}

/** Offerings of the claim's types in its zones, capacity type and reservations, cheapest first. */
function candidates(claim: NodeClaimRecord, types: readonly InstanceType[]): Candidate[] {
  const requirements = fromNodeSelector(claim.requirements);
  const zones = get(requirements, Label.zone);
  const capacityTypes = get(requirements, Label.capacityType);
  const reservations = requirements.get(Label.capacityReservationId);
  const inReservations = (id: string | undefined) =>
    reservations === undefined || (id !== undefined && has(reservations, id));
  return types
    .flatMap((it) =>
      it.offerings
        .filter((o) => o.available && has(zones, o.zone) && has(capacityTypes, o.capacityType))
        .filter((o) => o.capacityType !== 'reserved' || inReservations(o.reservationId))
        .map((o) => ({
          instanceType: it.name,
          zone: o.zone,
          capacityType: o.capacityType,
          pricePerHour: o.pricePerHour,
          ...(o.reservationId === undefined ? {} : { reservationId: o.reservationId }),
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
  /** The account's EC2, which the EC2 API serves too. */
  readonly ec2: SimulatedEc2;
  readonly #impaired = new Map<string, InstanceStatus>();
  /**
   * Built lists by class and unavailable offerings: the catalog and prices never change here.
   * Karpenter keeps built instance types the same way, keyed by what they are built from
   * (aws: pkg/providers/instancetype/instancetype.go, `List`).
   */
  readonly #builtTypes = new KeptValues<readonly InstanceType[]>(MAX_BUILT_LISTS);
  #launchCalls = 0;

  constructor(options: SimulatedCloudOptions | SimulatedEc2) {
    this.ec2 = options instanceof SimulatedEc2 ? options : new SimulatedEc2(options);
  }

  get capacity(): CapacityPools {
    return this.ec2.capacity;
  }

  onLaunch(listener: LaunchListener): void {
    this.ec2.onLaunch(listener);
  }

  onTermination(listener: TerminationListener): void {
    this.ec2.onTermination(listener);
  }

  /** The next `calls` API calls are refused for rate. */
  throttleNext(calls: number): void {
    this.ec2.throttleNext(calls);
  }

  /**
   * Starts an instance something else launched (Karpenter, a managed node group): it carries
   * the cluster tag but not Nodesmith's, so only `describe` finds it.
   */
  startForeign(foreign: ForeignInstance): SimulatedInstance {
    return this.ec2.startForeign(foreign);
  }

  /** Every instance ever launched, terminated ones included, in launch order. */
  instances(): readonly SimulatedInstance[] {
    return this.ec2.instances();
  }

  /**
   * Interrupts a spot instance: returns the warning EventBridge would deliver now, and the
   * instance is reclaimed two minutes of simulated time later (see `reclaim`).
   */
  interrupt(instanceId: string): SpotInterruptionWarning {
    return this.ec2.interrupt(instanceId);
  }

  /** Terminates the interrupted instances whose notice has run out; returns their ids. */
  reclaim(): string[] {
    return this.ec2.reclaim();
  }

  /** Launch calls made, repeats of a claim included. */
  get launchCalls(): number {
    return this.#launchCalls;
  }

  async resolveNodeClass(nodeClass: LaunchableNodeClass): Promise<ResolvedNodeClass> {
    await this.#call();
    const placementGroup = this.#placementGroup(nodeClass);
    return {
      name: nodeClass.metadata.name,
      amiFamily: 'AL2023',
      subnets: selectedSubnets(this.ec2, nodeClass.spec.subnetSelectorTerms ?? []),
      securityGroups: selectedSecurityGroups(
        this.ec2,
        nodeClass.spec.securityGroupSelectorTerms ?? [],
      ),
      amis: [{ id: simulatedAmi(nodeClass), name: 'simulated-al2023', requirements: [] }],
      instanceProfile: `${nodeClass.metadata.name}-simulated`,
      capacityReservations: this.#reservations(nodeClass),
      ...(placementGroup === undefined ? {} : { placementGroup }),
    };
  }

  /** The active reservations the class's terms select, by id, as the adapter lists them. */
  #reservations(nodeClass: LaunchableNodeClass): CapacityReservation[] {
    const terms = nodeClass.spec.capacityReservationSelectorTerms ?? [];
    const now = this.ec2.options.clock.now();
    return this.ec2.reservations
      .filter((r) => isActive(r, now) && terms.some((term) => selects(term, r)))
      .map((r) => asStatus(r, now))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The group the class selects, as the EC2 adapter resolves it; a missing one is not ready. */
  #placementGroup(nodeClass: LaunchableNodeClass): PlacementGroup | undefined {
    const selector = nodeClass.spec.placementGroupSelector;
    if (selector === undefined) return undefined;
    const group = this.ec2.placementGroup(selector);
    if (group !== undefined) return group;
    throw new NodeClassNotReadyError(
      `resolving ec2nodeclass ${nodeClass.metadata.name}: placement group "${selector.name ?? selector.id}" not found`,
    );
  }

  async instanceTypes(
    nodeClass: LaunchableNodeClass,
    options: InstanceTypeOptions = {},
  ): Promise<readonly InstanceType[]> {
    await this.#call();
    const unavailable = (options.unavailable ?? []).map((o) =>
      offeringKey(o.instanceType, o.zone, o.capacityType, o.reservationId),
    );
    const reservations = this.#reservations(nodeClass).map((reservation) => ({
      reservation,
      availableCount: this.ec2.availableIn(reservation.id),
    }));
    const key = JSON.stringify([nodeClass, [...unavailable].sort(), reservations]);
    const { region } = this.ec2.options;
    // Offered where the class has a subnet, as the adapter builds them from the class's subnets.
    const subnets = selectedSubnets(this.ec2, nodeClass.spec.subnetSelectorTerms ?? []);
    const zones = [...new Set(subnets.map((subnet) => subnet.zone))].sort();
    const prices = this.ec2.prices;
    const placementGroup = this.#placementGroup(nodeClass);
    return this.#builtTypes.get(key, () =>
      buildInstanceTypes({
        catalog: BUNDLED_CATALOG,
        region,
        prices: prices.onDemand,
        spotPrices: prices.spot,
        currency: prices.currency,
        zones,
        unavailable: new Set(unavailable),
        nodeClass,
        reservations,
        ...(placementGroup === undefined ? {} : { placementGroup }),
      }),
    );
  }

  async prices(): Promise<OfferingPrices> {
    return this.ec2.prices;
  }

  async launch(claim: NodeClaimRecord, context: LaunchContext): Promise<LaunchResult> {
    this.#launchCalls += 1;
    await this.#call();
    const existing = this.ec2.launchedFor(claim.name);
    if (existing !== undefined) return this.#result(existing, []);
    const subnets = selectedSubnets(this.ec2, context.nodeClass.spec.subnetSelectorTerms ?? []);
    // As CreateFleet is asked, only zones with one of the class's subnets are tried.
    const offerings = candidates(claim, context.instanceTypes).filter((o) =>
      subnets.some((subnet) => subnet.zone === o.zone),
    );
    if (offerings.length === 0) {
      throw new InvalidConfigError(
        `launching ${claim.name}: no offering of its instance types matches its zones and capacity type`,
      );
    }
    // A reservation has room while fewer instances run in it than it holds.
    const hasRoom = (o: Candidate) =>
      o.reservationId === undefined
        ? this.ec2.capacity.has(o)
        : this.ec2.availableIn(o.reservationId) > 0;
    const full = offerings.filter((o) => !hasRoom(o));
    const chosen = offerings.find(hasRoom);
    if (chosen === undefined) {
      throw new InsufficientCapacityError(
        `launching ${claim.name}: no capacity for any of ${offerings.length} offerings`,
        full.map(keyOf),
      );
    }
    const instance = this.ec2.start(
      chosen,
      {
        token: claim.name,
        nodeClaim: claim.name,
        nodePool: claim.nodePool,
        nodeClass: claim.nodeClass,
        imageId: simulatedAmi(context.nodeClass),
        network: this.#network(context.nodeClass, subnets, chosen),
        owned: true,
      },
      context,
    );
    const skipped = full.filter((o) => o.pricePerHour <= chosen.pricePerHour);
    return this.#result(instance, skipped.map(keyOf));
  }

  /** The zone's subnet among those selected, and every selected security group. */
  #network(
    nodeClass: LaunchableNodeClass,
    subnets: readonly ResolvedNodeClassSubnet[],
    { zone, reservationId }: Candidate,
  ): InstanceNetwork {
    const groups = selectedSecurityGroups(
      this.ec2,
      nodeClass.spec.securityGroupSelectorTerms ?? [],
    );
    return {
      subnetId: subnets.find((subnet) => subnet.zone === zone)?.id ?? '',
      securityGroupIds: groups.map((group) => group.id),
      ...(reservationId === undefined ? {} : { capacityReservationId: reservationId }),
    };
  }

  async terminate(instanceId: string): Promise<void> {
    await this.#call();
    this.ec2.terminate(instanceId);
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
    for (const i of this.ec2.instances()) if (wanted.has(i.instanceId)) i.owned = true;
  }

  /** EC2's status checks find the instance impaired, with these details, until it is terminated. */
  impair(status: InstanceStatus): void {
    this.#impaired.set(status.instanceId, status);
  }

  async instanceStatuses(): Promise<readonly InstanceStatus[]> {
    await this.#call();
    const gone = new Set(
      this.ec2
        .instances()
        .filter((i) => i.terminatedAt !== undefined)
        .map((i) => i.instanceId),
    );
    return [...this.#impaired.values()].filter((s) => !gone.has(s.instanceId));
  }

  #listed(which: (instance: SimulatedInstance) => boolean): ManagedInstance[] {
    return this.ec2
      .instances()
      .filter((i) => i.terminatedAt === undefined && which(i))
      .map((i) => ({
        ...this.#launched(i),
        state: this.ec2.state(i),
        ...(i.nodeClaim === '' ? {} : { nodeClaim: i.nodeClaim }),
        ...(i.nodePool === '' ? {} : { nodePool: i.nodePool }),
        ...(i.nodeClass === '' ? {} : { nodeClass: i.nodeClass }),
        owned: i.owned,
      }))
      .sort((a, b) => (a.instanceId < b.instanceId ? -1 : 1));
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
      ...(instance.network === undefined ? {} : { network: instance.network }),
    };
  }

  #result(instance: SimulatedInstance, skipped: readonly OfferingKey[]): LaunchResult {
    return skipped.length === 0
      ? this.#launched(instance)
      : { ...this.#launched(instance), unavailableOfferings: skipped };
  }

  async #call(): Promise<void> {
    if (!(await this.ec2.admit())) {
      throw new ThrottledError('calling the simulated cloud: request limit exceeded');
    }
  }
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
