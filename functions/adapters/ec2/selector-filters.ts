/**
 * EC2NodeClass selector terms as DescribeSubnets / DescribeSecurityGroups / DescribeImages
 * filters. Terms are ORed (one request each), the fields of one term ANDed (one request with
 * several filters), as Karpenter queries them (aws: pkg/providers/{subnet,securitygroup,amifamily}).
 */
import type { Filter } from '@aws-sdk/client-ec2';
import type { AmiSelectorTerm, SelectorTerm } from '../../domain/node-class.ts';

/** `'*'` matches any value of the key; any other value matches exactly. */
export function tagFilters(tags: Readonly<Record<string, string>> | undefined): Filter[] {
  return Object.keys(tags ?? {})
    .sort()
    .map((key) => {
      const value = tags?.[key] ?? '';
      return value === '*'
        ? { Name: 'tag-key', Values: [key] }
        : { Name: `tag:${key}`, Values: [value] };
    });
}

export function subnetFilters(term: SelectorTerm): Filter[] {
  if (term.id !== undefined) return [{ Name: 'subnet-id', Values: [term.id] }];
  return tagFilters(term.tags);
}

export function securityGroupFilters(term: SelectorTerm): Filter[] {
  if (term.id !== undefined) return [{ Name: 'group-id', Values: [term.id] }];
  const byName: Filter[] =
    term.name === undefined ? [] : [{ Name: 'group-name', Values: [term.name] }];
  return [...byName, ...tagFilters(term.tags)];
}

export interface ImageQuery {
  readonly filters: readonly Filter[];
  readonly owners: readonly string[];
}

/**
 * A name alone would also match AMIs anyone shared publicly, so without an owner a name looks
 * only at the account's own and Amazon's images, as Karpenter does.
 */
export function imageQuery(term: AmiSelectorTerm, imageId?: string): ImageQuery {
  const id = imageId ?? term.id;
  if (id !== undefined) return { filters: [{ Name: 'image-id', Values: [id] }], owners: [] };
  const byName: Filter[] = term.name === undefined ? [] : [{ Name: 'name', Values: [term.name] }];
  const owners =
    term.owner !== undefined ? [term.owner] : term.name !== undefined ? ['self', 'amazon'] : [];
  return { filters: [...byName, ...tagFilters(term.tags)], owners };
}
