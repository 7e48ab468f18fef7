/**
 * The placement group an EC2NodeClass selects, by name or id, among the available ones (aws:
 * pkg/providers/placementgroup/provider.go, types.go `DescribePlacementGroupsInput`), cached
 * for a minute as Karpenter caches it. A group EC2 does not know, or not available, leaves the
 * class not ready (Karpenter: `PlacementGroupReady=False`, `PlacementGroupNotFound`).
 */
import {
  DescribePlacementGroupsCommand,
  type PlacementGroup as Ec2PlacementGroup,
} from '@aws-sdk/client-ec2';
import type { PlacementGroup, PlacementGroupSelector } from '../../domain/placement-group.ts';
import { NodeClassNotReadyError } from '../../ports/errors.ts';
import { TtlCache } from '../cache/ttl-cache.ts';
import type { Ec2Api, Now } from './clients.ts';
import { awsErrorCode, toPortError } from './errors.ts';
import { RefreshInterval } from './refresh-intervals.ts';

/** What EC2 answers for a name or id it does not know, instead of an empty list. */
const UNKNOWN_GROUP_CODES: ReadonlySet<string> = new Set([
  'InvalidPlacementGroup.Unknown',
  'InvalidPlacementGroupId.NotFound',
]);

function fromPlacementGroup(group: Ec2PlacementGroup): PlacementGroup {
  return {
    id: group.GroupId ?? '',
    name: group.GroupName ?? '',
    strategy: (group.Strategy ?? 'cluster') as PlacementGroup['strategy'],
    ...(group.PartitionCount === undefined ? {} : { partitionCount: group.PartitionCount }),
    ...(group.SpreadLevel === undefined ? {} : { spreadLevel: group.SpreadLevel }),
  };
}

export class PlacementGroupProvider {
  readonly #ec2: Ec2Api;
  readonly #cache: TtlCache<PlacementGroup | undefined>;

  constructor(ec2: Ec2Api, now: Now) {
    this.#ec2 = ec2;
    this.#cache = new TtlCache(now, RefreshInterval.placementGroupsMs);
  }

  /** The group the selector names; rejects with NodeClassNotReadyError when there is none. */
  async get(selector: PlacementGroupSelector, nodeClass: string): Promise<PlacementGroup> {
    const found = await this.#cache.getOrLoad(JSON.stringify(selector), () =>
      this.#describe(selector),
    );
    if (found !== undefined) return found;
    const named = selector.name ?? selector.id ?? '';
    throw new NodeClassNotReadyError(
      `resolving ec2nodeclass ${nodeClass}: placement group "${named}" not found`,
    );
  }

  async #describe(selector: PlacementGroupSelector): Promise<PlacementGroup | undefined> {
    try {
      const output = await this.#ec2.send(
        new DescribePlacementGroupsCommand({
          Filters: [{ Name: 'state', Values: ['available'] }],
          ...(selector.id === undefined
            ? { GroupNames: [selector.name ?? ''] }
            : { GroupIds: [selector.id] }),
        }),
      );
      const [first] = output.PlacementGroups ?? [];
      return first === undefined ? undefined : fromPlacementGroup(first);
    } catch (err) {
      if (UNKNOWN_GROUP_CODES.has(awsErrorCode(err) ?? '')) return undefined;
      throw toPortError(err, 'describing placement groups');
    }
  }
}
