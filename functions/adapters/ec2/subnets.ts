/**
 * Subnets an EC2NodeClass selects, and the one a launch uses in each zone: the subnet with the
 * most free IPv4 addresses (aws: pkg/providers/subnet/subnet.go `ZonalSubnetsForLaunch`).
 */
import { paginateDescribeSubnets, type Subnet } from '@aws-sdk/client-ec2';
import type { SelectorTerm } from '../../domain/node-class.ts';
import type { ResolvedNodeClassSubnet } from '../../ports/cloud-provider.ts';
import { TtlCache } from '../cache/ttl-cache.ts';
import type { Ec2Api, Now } from './clients.ts';
import { toPortError } from './errors.ts';
import { fromSubnet } from './mappers.ts';
import { collect } from './pages.ts';
import { RefreshInterval } from './refresh-intervals.ts';
import { subnetFilters } from './selector-filters.ts';

/** Unique by id, sorted by id: the order every resolved list comes in. */
export function byId<T extends { readonly id: string }>(items: readonly T[]): T[] {
  const unique = new Map(items.map((item) => [item.id, item]));
  return [...unique.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export class SubnetProvider {
  readonly #ec2: Ec2Api;
  readonly #cache: TtlCache<readonly ResolvedNodeClassSubnet[]>;

  constructor(ec2: Ec2Api, now: Now) {
    this.#ec2 = ec2;
    this.#cache = new TtlCache(now, RefreshInterval.subnetsMs);
  }

  /** The subnets any term selects, sorted by id; cached for a minute per set of terms. */
  list(terms: readonly SelectorTerm[]): Promise<readonly ResolvedNodeClassSubnet[]> {
    return this.#cache.getOrLoad(JSON.stringify(terms), async () => {
      const found = await Promise.all(terms.map((term) => this.#describe(term)));
      return byId(found.flat().map(fromSubnet));
    });
  }

  async #describe(term: SelectorTerm): Promise<Subnet[]> {
    try {
      const pages = paginateDescribeSubnets(
        { client: this.#ec2 },
        { Filters: subnetFilters(term) },
      );
      return await collect(pages, (page) => page.Subnets);
    } catch (err) {
      throw toPortError(err, 'describing subnets');
    }
  }
}

/** Per zone (in `zones`, when given), the subnet with the most free addresses; ties go to the lower id. */
export function zonalSubnets(
  subnets: readonly ResolvedNodeClassSubnet[],
  zones?: (zone: string) => boolean,
): Map<string, ResolvedNodeClassSubnet> {
  const out = new Map<string, ResolvedNodeClassSubnet>();
  for (const subnet of byId(subnets)) {
    if (zones !== undefined && !zones(subnet.zone)) continue;
    const best = out.get(subnet.zone);
    if (best === undefined || subnet.availableIpAddressCount > best.availableIpAddressCount) {
      out.set(subnet.zone, subnet);
    }
  }
  return out;
}
