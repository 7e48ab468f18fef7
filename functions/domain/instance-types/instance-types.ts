/**
 * The instance types a NodePool's EC2NodeClass can launch in a region, with Karpenter's
 * capacity and allocatable estimate, well-known label requirements and priced offerings.
 * Types the class's launch settings rule out keep their offerings, all unavailable, as
 * Karpenter marks them (aws: pkg/providers/instancetype/offering/base_resolver.go;
 * `node-class-compatibility.ts`).
 * Pure and deterministic: the same options give the same list, sorted by name.
 */
import type { InstanceType, Offering } from '../instance-type.ts';
import { type EC2NodeClass, isWindows } from '../node-class.ts';
import { type PlacementGroup, partitionsOf } from '../placement-group.ts';
import type { CatalogEntry } from './catalog.ts';
import { instanceTypeRequirements, sharedRequirements } from './instance-type-requirements.ts';
import { isCompatibleWithNodeClass } from './node-class-compatibility.ts';
import { nodeClassSettings } from './node-class-settings.ts';
import { nodeResources } from './node-resources.ts';
import { buildOfferings, type OfferingZone, perPartition, type SpotPrices } from './offerings.ts';
import type { Currency, PriceTable } from './prices.ts';
import { type ReservationOffer, reservedOfferings } from './reserved-offerings.ts';
import { type WindowsPrices, windowsOnDemandPrice, windowsSpotPrices } from './windows-prices.ts';

export interface BuildInstanceTypesOptions {
  /** The catalog to build from, such as `BUNDLED_CATALOG`. */
  readonly catalog: readonly CatalogEntry[];
  readonly region: string;
  /** On-demand prices of the region (see `onDemandPrices`); unpriced types get no offerings. */
  readonly prices: PriceTable;
  /** The zones instances may launch in (the EC2NodeClass's subnet zones). */
  readonly zones: readonly string[];
  /** Zone → zone id (`us-east-1a` → `use1-az1`), when the subnets are resolved. */
  readonly zoneIds?: Readonly<Record<string, string>>;
  readonly spotPrices?: SpotPrices;
  /** `offeringKey()`s of offerings that recently had no capacity. */
  readonly unavailable?: ReadonlySet<string>;
  /** AMI family, kubelet settings, block devices and instance store policy. */
  readonly nodeClass?: EC2NodeClass;
  /** A fraction of memory the VM keeps (default 0.075). */
  readonly vmMemoryOverheadPercent?: number;
  /** ENIs kept out of pod networking (default 0). */
  readonly reservedEnis?: number;
  /** The currency of `prices` (default USD): it decides the Windows license estimate. */
  readonly currency?: Currency;
  /** Live Windows prices, used for Windows AMI families over the Linux price plus license. */
  readonly windowsPrices?: WindowsPrices;
  /**
   * The class's capacity reservations with what each can still take; by default those of the
   * class's status, uncounted.
   */
  readonly reservations?: readonly ReservationOffer[];
  /** The placement group the class's selector resolves to, when it has one. */
  readonly placementGroup?: PlacementGroup;
}

const NOTHING_UNAVAILABLE: ReadonlySet<string> = new Set();

function offeringZones(
  zones: readonly string[],
  zoneIds: Readonly<Record<string, string>> | undefined,
): OfferingZone[] {
  return [...new Set(zones)].sort().map((zone) => {
    const zoneId = zoneIds?.[zone];
    return zoneId === undefined ? { zone } : { zone, zoneId };
  });
}

interface EntryPrices {
  readonly onDemandPrice: number | undefined;
  readonly spotPrices: ReadonlyMap<string, number> | undefined;
}

/** The Linux prices, or for a Windows AMI family what Windows Server costs on that type. */
function pricesOf(
  entry: CatalogEntry,
  options: BuildInstanceTypesOptions,
  windows: boolean,
): EntryPrices {
  const onDemandPrice = options.prices.get(entry.name);
  const spotPrices = options.spotPrices?.get(entry.name);
  if (!windows) return { onDemandPrice, spotPrices };
  const input = { entry, currency: options.currency ?? 'USD', live: options.windowsPrices };
  return {
    onDemandPrice: windowsOnDemandPrice(input, onDemandPrice),
    spotPrices: windowsSpotPrices(input, spotPrices),
  };
}

function byName(a: CatalogEntry, b: CatalogEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function reservationsOf(options: BuildInstanceTypesOptions): readonly ReservationOffer[] {
  if (options.reservations !== undefined) return options.reservations;
  const resolved = options.nodeClass?.status?.capacityReservations ?? [];
  return resolved.map((reservation) => ({ reservation }));
}

/** Reservations by instance type, so each type looks up only its own. */
function byInstanceType(offers: readonly ReservationOffer[]): Map<string, ReservationOffer[]> {
  const out = new Map<string, ReservationOffer[]>();
  for (const offer of offers) {
    const list = out.get(offer.reservation.instanceType) ?? [];
    list.push(offer);
    out.set(offer.reservation.instanceType, list);
  }
  return out;
}

/** A type the class rules out keeps its offerings, reserved ones too, none of them available. */
function allUnavailable(offerings: readonly Offering[]): Offering[] {
  return offerings.map((offering) => ({ ...offering, available: false }));
}

export function buildInstanceTypes(options: BuildInstanceTypesOptions): readonly InstanceType[] {
  const settings = nodeClassSettings(options);
  const reservations = byInstanceType(reservationsOf(options));
  const zones = offeringZones(options.zones, options.zoneIds);
  const unavailable = options.unavailable ?? NOTHING_UNAVAILABLE;
  const windows = isWindows(settings.amiFamily);
  const shared = sharedRequirements({
    region: options.region,
    windows,
    windowsBuild: settings.traits.windowsBuild,
    zones,
    placementGroup: options.placementGroup,
  });
  const partitions = partitionsOf(options.placementGroup);
  return [...options.catalog].sort(byName).map((entry): InstanceType => {
    const prices = pricesOf(entry, options, windows);
    const offerings = buildOfferings({ instanceType: entry.name, zones, ...prices, unavailable });
    const offered = offerings.length > 0;
    const reserved = reservations.get(entry.name) ?? [];
    if (reserved.length > 0) {
      offerings.push(
        ...reservedOfferings({
          instanceType: entry.name,
          reservations: reserved,
          onDemandPrice: prices.onDemandPrice,
          zones,
          unavailable,
        }),
      );
    }
    const requirements = instanceTypeRequirements({
      entry,
      offered,
      shared,
      reservations: reserved.map((offer) => offer.reservation),
    });
    // Base, then reserved, then one per partition, as Karpenter's resolvers run.
    const placed = perPartition(offerings, partitions);
    const compatible = isCompatibleWithNodeClass(entry, options.nodeClass, options.placementGroup);
    return {
      name: entry.name,
      requirements,
      offerings: compatible ? placed : allUnavailable(placed),
      ...nodeResources(entry, settings),
      ...(options.placementGroup === undefined ? {} : { placementGroup: options.placementGroup }),
    };
  });
}
