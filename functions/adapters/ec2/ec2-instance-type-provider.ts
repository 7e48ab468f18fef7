/**
 * The instance types an EC2NodeClass can launch (aws: pkg/providers/instancetype): EC2's
 * DescribeInstanceTypes mapped to catalog entries, offered only in the zones
 * DescribeInstanceTypeOfferings lists for each type, priced by the price provider and built
 * into domain instance types with Karpenter's allocatable estimate. Both descriptions are
 * refreshed every 12 hours; until EC2 answers, the bundled catalog stands in, offered in every
 * zone of the class's subnets.
 */
import {
  type InstanceTypeOffering,
  paginateDescribeInstanceTypeOfferings,
  paginateDescribeInstanceTypes,
} from '@aws-sdk/client-ec2';
import type { InstanceType } from '../../domain/instance-type.ts';
import { BUNDLED_CATALOG } from '../../domain/instance-types/bundled-catalog.ts';
import type { CatalogEntry } from '../../domain/instance-types/catalog.ts';
import { buildInstanceTypes } from '../../domain/instance-types/instance-types.ts';
import { offeringKey } from '../../domain/instance-types/offerings.ts';
import type { ReservationOffer } from '../../domain/instance-types/reserved-offerings.ts';
import { KeptValues } from '../../domain/kept-values.ts';
import { amiFamilyOf, isWindows } from '../../domain/node-class.ts';
import type { PlacementGroup } from '../../domain/placement-group.ts';
import type {
  InstanceTypeOptions,
  InstanceTypeProvider,
  LaunchableNodeClass,
  OfferingPrices,
  PriceProvider,
  ResolvedNodeClassSubnet,
} from '../../ports/cloud-provider.ts';
import { InvalidConfigError } from '../../ports/errors.ts';
import type { CapacityReservationProvider } from './capacity-reservations.ts';
import type { Ec2Api, Now } from './clients.ts';
import { LastBuilt } from './last-built.ts';
import { toCatalogEntry } from './mappers.ts';
import { collect } from './pages.ts';
import type { PlacementGroupProvider } from './placement-groups.ts';
import { RefreshInterval } from './refresh-intervals.ts';
import { RefreshedValue } from './refreshed-value.ts';
import type { SubnetProvider } from './subnets.ts';

export interface InstanceTypeProviderOptions {
  readonly ec2: Ec2Api;
  readonly subnets: SubnetProvider;
  /** Absent: no reserved offerings (tests of the other offerings). */
  readonly capacityReservations?: CapacityReservationProvider;
  readonly placementGroups: PlacementGroupProvider;
  readonly prices: PriceProvider;
  readonly region: string;
  readonly now: Now;
  readonly onRefreshError?: (err: unknown, what: string) => void;
}

/** Zone name → zones the type is offered in. */
type OfferedZones = ReadonlyMap<string, ReadonlySet<string>>;

const BUNDLED_BY_NAME: ReadonlyMap<string, CatalogEntry> = new Map(
  BUNDLED_CATALOG.map((entry) => [entry.name, entry]),
);

interface BuildInput {
  readonly nodeClass: LaunchableNodeClass;
  readonly subnets: readonly ResolvedNodeClassSubnet[];
  readonly placementGroup: PlacementGroup | undefined;
  readonly prices: OfferingPrices;
  readonly catalog: readonly CatalogEntry[];
  readonly offered: OfferedZones | undefined;
  readonly unavailable: ReadonlySet<string>;
  readonly reservations: readonly ReservationOffer[];
}

/** Classes and sets of unavailable offerings kept between refreshes, past which all start over. */
const MAX_BUILT_LISTS = 32;

export class Ec2InstanceTypeProvider implements InstanceTypeProvider {
  readonly #options: InstanceTypeProviderOptions;
  readonly #catalog: RefreshedValue<readonly CatalogEntry[]>;
  readonly #offered: RefreshedValue<OfferedZones>;
  /** Built lists by class, subnets and unavailable offerings, for the current refreshed inputs. */
  readonly #built = new LastBuilt<KeptValues<readonly InstanceType[]>>();

  constructor(options: InstanceTypeProviderOptions) {
    this.#options = options;
    const refresh = {
      refreshMs: RefreshInterval.instanceTypesMs,
      retryMs: RefreshInterval.retryAfterFailureMs,
      now: options.now,
    };
    this.#catalog = new RefreshedValue({
      ...refresh,
      load: () => this.#describeInstanceTypes(),
      onError: (err) => options.onRefreshError?.(err, 'instance types'),
    });
    this.#offered = new RefreshedValue({
      ...refresh,
      load: () => this.#describeOfferings(),
      onError: (err) => options.onRefreshError?.(err, 'instance type offerings'),
    });
  }

  async instanceTypes(
    nodeClass: LaunchableNodeClass,
    options: InstanceTypeOptions = {},
  ): Promise<readonly InstanceType[]> {
    const subnets = await this.#options.subnets.list(nodeClass.spec.subnetSelectorTerms ?? []);
    if (subnets.length === 0) {
      throw new InvalidConfigError(
        `listing instance types of ec2nodeclass ${nodeClass.metadata.name}: no subnets match its selector terms`,
      );
    }
    const [prices, catalog, offered, reservations, placementGroup] = await Promise.all([
      this.#options.prices.prices({ windows: isWindows(amiFamilyOf(nodeClass)) }),
      this.#catalog.current(),
      this.#offered.current(),
      this.#options.capacityReservations?.offers(
        nodeClass.spec.capacityReservationSelectorTerms ?? [],
      ) ?? [],
      this.#placementGroup(nodeClass),
    ]);
    const unavailable = (options.unavailable ?? []).map((o) =>
      offeringKey(o.instanceType, o.zone, o.capacityType, o.reservationId),
    );
    // Kept until the prices, the catalog or the offerings are refreshed, as Karpenter keeps
    // built instance types (aws: pkg/providers/instancetype/instancetype.go, `List`).
    const built = this.#built.get(
      [prices, catalog, offered],
      () => new KeptValues(MAX_BUILT_LISTS),
    );
    const key = JSON.stringify([
      nodeClass,
      subnets,
      [...unavailable].sort(),
      reservations,
      placementGroup,
    ]);
    return built.get(key, () =>
      this.#build({
        nodeClass,
        subnets,
        placementGroup,
        prices,
        catalog: catalog ?? BUNDLED_CATALOG,
        offered,
        unavailable: new Set(unavailable),
        reservations,
      }),
    );
  }

  /** The group the class selects, which its types carry; rejects when EC2 has none by that name. */
  async #placementGroup(nodeClass: LaunchableNodeClass): Promise<PlacementGroup | undefined> {
    const selector = nodeClass.spec.placementGroupSelector;
    if (selector === undefined) return undefined;
    return this.#options.placementGroups.get(selector, nodeClass.metadata.name);
  }

  /** Types offered in the same zones are built together: offerings and zone labels match EC2's. */
  #build(input: BuildInput): InstanceType[] {
    const zones = [...new Set(input.subnets.map((subnet) => subnet.zone))].sort();
    const zoneIds = Object.fromEntries(
      input.subnets.flatMap((subnet) =>
        subnet.zoneID === undefined ? [] : [[subnet.zone, subnet.zoneID]],
      ),
    );
    const groups = new Map<string, CatalogEntry[]>();
    for (const entry of input.catalog) {
      const own =
        input.offered === undefined
          ? zones
          : zones.filter((z) => input.offered?.get(entry.name)?.has(z));
      const key = own.join(',');
      const group = groups.get(key) ?? [];
      group.push(entry);
      groups.set(key, group);
    }
    const built = [...groups].flatMap(([key, catalog]) =>
      buildInstanceTypes({
        catalog,
        region: this.#options.region,
        prices: input.prices.onDemand,
        spotPrices: input.prices.spot,
        currency: input.prices.currency,
        ...(input.prices.windows === undefined ? {} : { windowsPrices: input.prices.windows }),
        zones: key === '' ? [] : key.split(','),
        zoneIds,
        unavailable: input.unavailable,
        nodeClass: input.nodeClass,
        reservations: input.reservations,
        ...(input.placementGroup === undefined ? {} : { placementGroup: input.placementGroup }),
      }),
    );
    return built.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async #describeInstanceTypes(): Promise<readonly CatalogEntry[]> {
    const pages = paginateDescribeInstanceTypes(
      { client: this.#options.ec2 },
      {
        Filters: [
          { Name: 'supported-virtualization-type', Values: ['hvm'] },
          { Name: 'processor-info.supported-architecture', Values: ['x86_64', 'arm64'] },
        ],
      },
    );
    const infos = await collect(pages, (page) => page.InstanceTypes);
    const entries = infos.flatMap((info) => {
      const entry = toCatalogEntry(info, BUNDLED_BY_NAME.get(info.InstanceType ?? ''));
      return entry === undefined ? [] : [entry];
    });
    if (entries.length === 0) throw new Error('describing instance types: none described');
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async #describeOfferings(): Promise<OfferedZones> {
    const pages = paginateDescribeInstanceTypeOfferings(
      { client: this.#options.ec2 },
      { LocationType: 'availability-zone' },
    );
    const offerings: InstanceTypeOffering[] = await collect(
      pages,
      (page) => page.InstanceTypeOfferings,
    );
    const offered = new Map<string, Set<string>>();
    for (const { InstanceType: type, Location: zone } of offerings) {
      if (type === undefined || zone === undefined) continue;
      offered.set(type, (offered.get(type) ?? new Set()).add(zone));
    }
    return offered;
  }
}
