/**
 * DescribePlacementGroups over the simulated account's groups, all `available`: by id or by
 * name, narrowed by filters. A name or id the account does not hold refuses the call, as EC2
 * refuses it.
 */
import type {
  DescribePlacementGroupsCommandInput,
  PlacementGroup as Ec2PlacementGroup,
  PlacementStrategy,
} from '@aws-sdk/client-ec2';
import type { PlacementGroup } from '../../../functions/domain/placement-group.ts';
import type { SimulatedEc2 } from '../../cloud/simulated-ec2.ts';
import { AwsError } from '../aws-service.ts';
import { type FilterValues, where } from './ec2-filters.ts';

function toPlacementGroup(group: PlacementGroup): Ec2PlacementGroup {
  return {
    GroupId: group.id,
    GroupName: group.name,
    State: 'available',
    Strategy: group.strategy as PlacementStrategy,
    PartitionCount: group.partitionCount,
    ...(group.spreadLevel === undefined
      ? {}
      : { SpreadLevel: group.spreadLevel as Ec2PlacementGroup['SpreadLevel'] }),
  };
}

function unknownGroup(named: string): AwsError {
  return new AwsError(
    'InvalidPlacementGroup.Unknown',
    `The Placement Group '${named}' is unknown.`,
  );
}

const FILTERS: Readonly<Record<string, (group: Ec2PlacementGroup) => readonly string[]>> = {
  state: (group) => [group.State ?? ''],
  strategy: (group) => [group.Strategy ?? ''],
  'group-name': (group) => [group.GroupName ?? ''],
  'group-id': (group) => [group.GroupId ?? ''],
};

function filterValues(group: Ec2PlacementGroup): FilterValues {
  return (name) => FILTERS[name]?.(group);
}

export function describePlacementGroups(
  ec2: SimulatedEc2,
  input: DescribePlacementGroupsCommandInput,
): { PlacementGroups: Ec2PlacementGroup[] } {
  const asked = [
    ...(input.GroupIds ?? []).map((id) => ({ id, named: id })),
    ...(input.GroupNames ?? []).map((name) => ({ name, named: name })),
  ];
  const groups =
    asked.length === 0
      ? [...(ec2.options.placementGroups ?? [])]
      : asked.map((selector) => {
          const group = ec2.placementGroup(selector);
          if (group === undefined) throw unknownGroup(selector.named);
          return group;
        });
  return { PlacementGroups: where(groups.map(toPlacementGroup), input.Filters, filterValues) };
}
