/**
 * An EC2 placement group as an EC2NodeClass's `placementGroupSelector` resolves it (aws:
 * pkg/providers/placementgroup/types.go `PlacementGroup`): every instance of the class is
 * launched into it. Partition groups give nodes a partition, which pods may spread over. EC2's
 * rules for each strategy (EC2 User Guide, "Placement strategies"; aws:
 * designs/placement-groups-support.md, "Strategy-Specific Limitations"): a cluster group runs in
 * one zone, a partition group has at most seven partitions per zone, and a spread group (rack
 * level) at most seven running instances per zone.
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

/** The most partitions EC2 gives a partition group in a zone. */
export const MAX_PARTITIONS = 7;

/** The most running instances EC2 lets a rack-level spread group have in a zone. */
export const MAX_SPREAD_INSTANCES_PER_ZONE = 7;

export interface PlacementGroupSelector {
  readonly name?: string;
  readonly id?: string;
}

/**
 * The partition numbers a group offers, as label values: `1` … `partitionCount`, never past the
 * seventh, into which EC2 launches nothing.
 */
export function partitionsOf(group: PlacementGroup | undefined): readonly string[] {
  if (group?.strategy !== 'partition') return [];
  const count = Math.min(group.partitionCount ?? 0, MAX_PARTITIONS);
  return Array.from({ length: count }, (_, i) => String(i + 1));
}

/** A group whose instances a plan must count by zone: cluster, and rack-level spread. */
export function confinesZones(group: PlacementGroup): boolean {
  return (
    group.strategy === 'cluster' || (group.strategy === 'spread' && group.spreadLevel !== 'host')
  );
}
