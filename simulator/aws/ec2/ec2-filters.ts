/**
 * EC2's `Filter.N.Name`/`Filter.N.Value.M` as describe calls apply them: filters are ANDed, the
 * values of one filter ORed, `*` and `?` match as wildcards, and `tag:<key>` and `tag-key`
 * read the resource's tags. A filter the resource does not know is refused, as EC2 refuses it.
 */
import type { Filter } from '@aws-sdk/client-ec2';
import { AwsError } from '../aws-service.ts';

/** The values a resource has for a filter name, or undefined when it has no such filter. */
export type FilterValues = (name: string) => readonly string[] | undefined;

function wildcard(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
}

/** The tag filters every taggable resource answers. */
export function tagFilterValues(
  tags: Readonly<Record<string, string>>,
  name: string,
): readonly string[] | undefined {
  if (name === 'tag-key') return Object.keys(tags);
  if (name.startsWith('tag:')) {
    const value = tags[name.slice('tag:'.length)];
    return value === undefined ? [] : [value];
  }
  return undefined;
}

export function matchesFilters(
  filters: readonly Filter[] | undefined,
  values: FilterValues,
): boolean {
  return (filters ?? []).every((filter) => {
    const name = filter.Name ?? '';
    const have = values(name);
    if (have === undefined) {
      throw new AwsError('InvalidParameterValue', `The filter '${name}' is invalid`);
    }
    const wanted = (filter.Values ?? []).map(wildcard);
    return have.some((value) => wanted.some((pattern) => pattern.test(value)));
  });
}

/** The items every filter matches. */
export function where<T>(
  items: readonly T[],
  filters: readonly Filter[] | undefined,
  values: (item: T) => FilterValues,
): T[] {
  return items.filter((item) => matchesFilters(filters, values(item)));
}
