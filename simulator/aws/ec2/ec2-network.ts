/** The account's subnets and security groups as DescribeSubnets and DescribeSecurityGroups list them. */
import type {
  DescribeSecurityGroupsCommandInput,
  DescribeSubnetsCommandInput,
} from '@aws-sdk/client-ec2';
import type { SimulatedEc2 } from '../../cloud/simulated-ec2.ts';
import { ACCOUNT_ID } from './ec2-catalog.ts';
import { tagFilterValues, where } from './ec2-filters.ts';

const VPC_ID = 'vpc-sim';

function tagList(tags: Readonly<Record<string, string>>) {
  return Object.keys(tags)
    .sort()
    .map((Key) => ({ Key, Value: tags[Key] }));
}

export function describeSubnets(ec2: SimulatedEc2, input: DescribeSubnetsCommandInput) {
  const subnets = where(ec2.subnets(), input.Filters, (subnet) => (name: string) => {
    if (name === 'subnet-id') return [subnet.id];
    if (name === 'availability-zone') return [subnet.zone];
    if (name === 'vpc-id') return [VPC_ID];
    return tagFilterValues(subnet.tags, name);
  });
  return {
    Subnets: subnets.map((subnet) => ({
      SubnetId: subnet.id,
      AvailabilityZone: subnet.zone,
      AvailabilityZoneId: subnet.zoneId,
      AvailableIpAddressCount: subnet.availableIpAddressCount,
      VpcId: VPC_ID,
      State: 'available' as const,
      Tags: tagList(subnet.tags),
    })),
  };
}

export function describeSecurityGroups(
  ec2: SimulatedEc2,
  input: DescribeSecurityGroupsCommandInput,
) {
  const groups = where(ec2.securityGroups(), input.Filters, (group) => (name: string) => {
    if (name === 'group-id') return [group.id];
    if (name === 'group-name') return [group.name];
    if (name === 'vpc-id') return [VPC_ID];
    return tagFilterValues(group.tags, name);
  });
  return {
    SecurityGroups: groups.map((group) => ({
      GroupId: group.id,
      GroupName: group.name,
      OwnerId: ACCOUNT_ID,
      VpcId: VPC_ID,
      Tags: tagList(group.tags),
    })),
  };
}
