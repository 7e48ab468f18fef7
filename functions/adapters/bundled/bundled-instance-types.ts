/**
 * Instance types from the catalog and on-demand prices that come with Nodesmith: the
 * InstanceTypeProvider of a what-if plan, which asks no cloud. Zones are those given, else the
 * class's resolved subnets' zones, else `<region>a/b/c`, as docs/design.md §6.1 says.
 */
import type { InstanceType } from '../../domain/instance-type.ts';
import { BUNDLED_CATALOG } from '../../domain/instance-types/bundled-catalog.ts';
import { buildInstanceTypes } from '../../domain/instance-types/instance-types.ts';
import type { RegionPrices } from '../../domain/instance-types/prices.ts';
import type { EC2NodeClass } from '../../domain/node-class.ts';
import type { InstanceTypeProvider, LaunchableNodeClass } from '../../ports/cloud-provider.ts';

export interface BundledInstanceTypesOptions {
  readonly region: string;
  readonly prices: RegionPrices;
  /** Zones to launch in, overriding the class's subnets. */
  readonly zones?: readonly string[];
}

function zonesFor(nodeClass: EC2NodeClass, options: BundledInstanceTypesOptions): string[] {
  if (options.zones !== undefined && options.zones.length > 0) return [...options.zones];
  const subnetZones = (nodeClass.status?.subnets ?? []).map((s) => s.zone);
  if (subnetZones.length > 0) return [...new Set(subnetZones)].sort();
  return ['a', 'b', 'c'].map((suffix) => `${options.region}${suffix}`);
}

function zoneIdsFor(nodeClass: EC2NodeClass): Record<string, string> | undefined {
  const subnets = (nodeClass.status?.subnets ?? []).filter((s) => s.zoneID !== undefined);
  if (subnets.length === 0) return undefined;
  return Object.fromEntries(subnets.map((s) => [s.zone, s.zoneID ?? '']));
}

export class BundledInstanceTypes implements InstanceTypeProvider {
  readonly #options: BundledInstanceTypesOptions;

  constructor(options: BundledInstanceTypesOptions) {
    this.#options = options;
  }

  instanceTypes(nodeClass: LaunchableNodeClass): Promise<readonly InstanceType[]> {
    const zoneIds = zoneIdsFor(nodeClass);
    return Promise.resolve(
      buildInstanceTypes({
        catalog: BUNDLED_CATALOG,
        region: this.#options.region,
        prices: this.#options.prices.prices,
        currency: this.#options.prices.currency,
        zones: zonesFor(nodeClass, this.#options),
        nodeClass,
        ...(zoneIds === undefined ? {} : { zoneIds }),
      }),
    );
  }
}
