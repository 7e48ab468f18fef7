/**
 * An EC2 placement group as an EC2NodeClass's `placementGroupSelector` resolves it (aws:
 * pkg/providers/placementgroup/types.go `PlacementGroup`): every instance of the class is
 * launched into it. Partition groups give nodes a partition, which pods may spread over.
 */
export type PlacementStrategy = 'cluster' | 'partition' | 'spread';

export interface PlacementGroup {
  /** `pg-0123456789abcdef0`. */
  readonly id: string;
  readonly name: string;
  readonly strategy: PlacementStrategy;
  /** Partition groups only: partitions are numbered 1 to this. */
  readonly partitionCount?: number;
  /** Spread groups only: `rack` or `host`. */
  readonly spreadLevel?: string;
}

export interface PlacementGroupSelector {
  readonly name?: string;
  readonly id?: string;
}

/** The partition numbers a group offers, as label values: `1` … `partitionCount`. */
export function partitionsOf(group: PlacementGroup | undefined): readonly string[] {
  if (group?.strategy !== 'partition') return [];
  return Array.from({ length: group.partitionCount ?? 0 }, (_, i) => String(i + 1));
}
