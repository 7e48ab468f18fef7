/** Security groups an EC2NodeClass selects (aws: pkg/providers/securitygroup/securitygroup.go). */
import { paginateDescribeSecurityGroups, type SecurityGroup } from '@aws-sdk/client-ec2';
import type { SelectorTerm } from '../../domain/node-class.ts';
import type { ResolvedSecurityGroup } from '../../ports/cloud-provider.ts';
import { TtlCache } from '../cache/ttl-cache.ts';
import type { Ec2Api, Now } from './clients.ts';
import { toPortError } from './errors.ts';
import { fromSecurityGroup } from './mappers.ts';
import { collect } from './pages.ts';
import { RefreshInterval } from './refresh-intervals.ts';
import { securityGroupFilters } from './selector-filters.ts';
import { byId } from './subnets.ts';

export class SecurityGroupProvider {
  readonly #ec2: Ec2Api;
  readonly #cache: TtlCache<readonly ResolvedSecurityGroup[]>;

  constructor(ec2: Ec2Api, now: Now) {
    this.#ec2 = ec2;
    this.#cache = new TtlCache(now, RefreshInterval.securityGroupsMs);
  }

  /** The groups any term selects, sorted by id; cached for a minute per set of terms. */
  list(terms: readonly SelectorTerm[]): Promise<readonly ResolvedSecurityGroup[]> {
    return this.#cache.getOrLoad(JSON.stringify(terms), async () => {
      const found = await Promise.all(terms.map((term) => this.#describe(term)));
      return byId(found.flat().map(fromSecurityGroup));
    });
  }

  async #describe(term: SelectorTerm): Promise<SecurityGroup[]> {
    try {
      const pages = paginateDescribeSecurityGroups(
        { client: this.#ec2 },
        { Filters: securityGroupFilters(term) },
      );
      return await collect(pages, (page) => page.SecurityGroups);
    } catch (err) {
      throw toPortError(err, 'describing security groups');
    }
  }
}
