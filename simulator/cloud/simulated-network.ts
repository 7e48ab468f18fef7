/**
 * The account's subnets and security groups a class's selector terms find, as the EC2 adapter
 * asks DescribeSubnets and DescribeSecurityGroups for them (one query a term, the results
 * together: aws: pkg/providers/subnet, securitygroup). A class whose selectors change finds
 * others, so its nodes drift as they would in a VPC (aws: pkg/cloudprovider/drift.go). Unlike
 * the EC2 API, which deployed runs query, a selector by any tag but `Name` finds all of the
 * network here: the files `simulate -f` reads each name their own discovery tag. Ids, names and
 * `Name` tags are always matched. A class with no terms, which Karpenter's schema refuses, gets
 * all of it too.
 */
import type { Filter } from '@aws-sdk/client-ec2';
import {
  securityGroupFilters,
  subnetFilters,
} from '../../functions/adapters/ec2/selector-filters.ts';
import type { SelectorTerm } from '../../functions/domain/node-class.ts';
import type {
  ResolvedNodeClassSubnet,
  ResolvedSecurityGroup,
} from '../../functions/ports/cloud-provider.ts';
import { describeSecurityGroups, describeSubnets } from '../aws/ec2/ec2-network.ts';
import type { SimulatedEc2 } from './simulated-ec2.ts';

/** The term's filters, without those by a tag other than `Name`. */
function filtersOf(filters: readonly Filter[]): Filter[] {
  return filters.filter(
    (f) => f.Name !== 'tag-key' && (f.Name === 'tag:Name' || !f.Name?.startsWith('tag:')),
  );
}

function termsOr(terms: readonly SelectorTerm[]): readonly SelectorTerm[] {
  return terms.length === 0 ? [{}] : terms;
}

function byId<T extends { readonly id: string }>(items: readonly T[]): T[] {
  const unique = new Map(items.map((item) => [item.id, item]));
  return [...unique.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function selectedSubnets(
  ec2: SimulatedEc2,
  terms: readonly SelectorTerm[],
): ResolvedNodeClassSubnet[] {
  return byId(
    termsOr(terms).flatMap((term) =>
      describeSubnets(ec2, { Filters: filtersOf(subnetFilters(term)) }).Subnets.map((subnet) => ({
        id: subnet.SubnetId,
        zone: subnet.AvailabilityZone,
        availableIpAddressCount: subnet.AvailableIpAddressCount,
      })),
    ),
  );
}

export function selectedSecurityGroups(
  ec2: SimulatedEc2,
  terms: readonly SelectorTerm[],
): ResolvedSecurityGroup[] {
  return byId(
    termsOr(terms).flatMap((term) =>
      describeSecurityGroups(ec2, {
        Filters: filtersOf(securityGroupFilters(term)),
      }).SecurityGroups.map((group) => ({ id: group.GroupId, name: group.GroupName })),
    ),
  );
}
