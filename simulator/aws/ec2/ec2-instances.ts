/**
 * The account's instances as DescribeInstances reports them: state with EC2's codes, placement,
 * lifecycle, the capacity reservation it runs in, and tags. An instance launched through CreateFleet has the tags it was launched and
 * since tagged with; one started in process or by something else before the run carries the tags
 * its launcher would have written (the cluster's, and Nodesmith's or Karpenter's own).
 */
import type { Instance, InstanceState, InstanceStateName, Tag } from '@aws-sdk/client-ec2';
import { clusterTagKey, TagKey } from '../../../functions/adapters/ec2/tags.ts';
import { Label } from '../../../functions/domain/labels.ts';
import type { SimulatedEc2 } from '../../cloud/simulated-ec2.ts';
import type { SimulatedInstance } from '../../cloud/simulated-instance.ts';
import { type FilterValues, tagFilterValues } from './ec2-filters.ts';

const STATE_CODES: Readonly<Record<string, number>> = {
  pending: 0,
  running: 16,
  'shutting-down': 32,
  terminated: 48,
  stopping: 64,
  stopped: 80,
};

export function instanceState(name: InstanceStateName): InstanceState {
  return { Code: STATE_CODES[name], Name: name };
}

function launcherTags(instance: SimulatedInstance, clusterName: string): Record<string, string> {
  const poolKey = instance.origin === 'nodesmith' ? TagKey.nodePool : TagKey.karpenterNodePool;
  const tags: Record<string, string> = { [clusterTagKey(clusterName)]: 'owned' };
  if (instance.nodeClaim !== '') tags[TagKey.nodeClaim] = instance.nodeClaim;
  if (instance.nodeClass !== '') tags[Label.nodeClass] = instance.nodeClass;
  if (instance.nodePool !== '') tags[poolKey] = instance.nodePool;
  return tags;
}

/** The instance's tags: as launched and tagged, with Nodesmith's while it is Nodesmith's. */
export function instanceTags(
  ec2: SimulatedEc2,
  instance: SimulatedInstance,
  clusterName: string,
): Record<string, string> {
  const own = ec2.tagsOf(instance.instanceId);
  const tags = Object.keys(own).length > 0 ? { ...own } : launcherTags(instance, clusterName);
  if (instance.owned) tags[TagKey.ownership] ??= clusterName;
  return tags;
}

function toTagList(tags: Readonly<Record<string, string>>): Tag[] {
  return Object.keys(tags)
    .sort()
    .map((Key) => ({ Key, Value: tags[Key] }));
}

export function toInstance(
  ec2: SimulatedEc2,
  instance: SimulatedInstance,
  tags: Readonly<Record<string, string>>,
): Instance {
  return {
    InstanceId: instance.instanceId,
    InstanceType: instance.instanceType as Instance['InstanceType'],
    ImageId: instance.imageId,
    LaunchTime: new Date(instance.launchedAt),
    Placement: { AvailabilityZone: instance.zone },
    State: instanceState(ec2.state(instance)),
    SubnetId: instance.network?.subnetId ?? `subnet-sim-${instance.zone}`,
    SecurityGroups: (instance.network?.securityGroupIds ?? []).map((GroupId) => ({ GroupId })),
    PrivateDnsName: `ip-${instance.instanceId.slice(2, 10)}.ec2.internal`,
    ...(instance.capacityType === 'spot' ? { InstanceLifecycle: 'spot' as const } : {}),
    ...(instance.network?.capacityReservationId === undefined
      ? {}
      : { CapacityReservationId: instance.network.capacityReservationId }),
    Tags: toTagList(tags),
  };
}

export function instanceFilters(
  ec2: SimulatedEc2,
  instance: SimulatedInstance,
  tags: Readonly<Record<string, string>>,
): FilterValues {
  return (name) => {
    switch (name) {
      case 'instance-id':
        return [instance.instanceId];
      case 'instance-state-name':
        return [ec2.state(instance)];
      case 'instance-type':
        return [instance.instanceType];
      case 'availability-zone':
        return [instance.zone];
      case 'instance-lifecycle':
        return instance.capacityType === 'spot' ? ['spot'] : [];
      default:
        return tagFilterValues(tags, name);
    }
  };
}
