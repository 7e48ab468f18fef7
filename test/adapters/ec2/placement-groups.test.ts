import { DescribePlacementGroupsCommand, type PlacementGroup } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { Ec2CloudProvider } from '../../../functions/adapters/ec2/ec2-cloud-provider.ts';
import { NodeClassNotReadyError } from '../../../functions/ports/errors.ts';
import {
  aClock,
  aNodeClass,
  CLUSTER,
  ec2Error,
  MINUTE,
  mockedClients,
  SECOND,
  stubDiscovery,
} from './support.ts';

const TRAINING: PlacementGroup = {
  GroupId: 'pg-0123456789abcdef0',
  GroupName: 'training',
  State: 'available',
  Strategy: 'partition',
  PartitionCount: 3,
};

function setUp(groups: PlacementGroup[] = [TRAINING]) {
  const clients = mockedClients();
  const clock = aClock();
  stubDiscovery(clients);
  clients.ec2Mock.on(DescribePlacementGroupsCommand).resolves({ PlacementGroups: groups });
  const cloud = new Ec2CloudProvider({ ...clients, cluster: CLUSTER, now: clock.now });
  return { ...clients, clock, cloud };
}

const BY_NAME = aNodeClass({
  instanceProfile: 'prod-nodes',
  role: undefined,
  placementGroupSelector: { name: 'training' },
});

describe('placement groups', () => {
  // aws: pkg/providers/placementgroup/types.go `DescribePlacementGroupsInput`
  it.each([
    [{ name: 'training' }, { GroupNames: ['training'] }],
    [{ id: 'pg-0123456789abcdef0' }, { GroupIds: ['pg-0123456789abcdef0'] }],
  ])('resolves the group %j among the available ones', async (selector, asked) => {
    // Prepare
    const mocked = setUp();
    const nodeClass = aNodeClass({
      instanceProfile: 'prod-nodes',
      role: undefined,
      placementGroupSelector: selector,
    });
    // Act
    const resolved = await mocked.cloud.resolveNodeClass(nodeClass);
    // Assess
    expect(resolved.placementGroup).toEqual({
      id: 'pg-0123456789abcdef0',
      name: 'training',
      strategy: 'partition',
      partitionCount: 3,
    });
    expect(mocked.ec2Mock.commandCalls(DescribePlacementGroupsCommand)[0]?.args[0].input).toEqual({
      Filters: [{ Name: 'state', Values: ['available'] }],
      ...asked,
    });
  });

  it('asks EC2 again only after a minute', async () => {
    // Prepare
    const mocked = setUp();
    // Act
    await mocked.cloud.resolveNodeClass(BY_NAME);
    mocked.clock.advance(MINUTE - SECOND);
    await mocked.cloud.resolveNodeClass(BY_NAME);
    mocked.clock.advance(2 * SECOND);
    await mocked.cloud.resolveNodeClass(BY_NAME);
    // Assess
    expect(mocked.ec2Mock.commandCalls(DescribePlacementGroupsCommand)).toHaveLength(2);
  });

  // aws: pkg/controllers/nodeclass/placementgroup.go, `PlacementGroupNotFound`
  it.each([
    ['EC2 lists none', () => setUp([])],
    [
      'EC2 does not know the name',
      () => {
        const mocked = setUp();
        mocked.ec2Mock
          .on(DescribePlacementGroupsCommand)
          .rejects(ec2Error('InvalidPlacementGroup.Unknown'));
        return mocked;
      },
    ],
  ])('leaves the class not ready when %s', async (_case, make) => {
    // Prepare
    const mocked = make();
    // Act
    const resolving = mocked.cloud.resolveNodeClass(BY_NAME);
    // Assess
    await expect(resolving).rejects.toThrow(NodeClassNotReadyError);
    await expect(resolving).rejects.toThrow('placement group "training" not found');
  });

  it('gives the class’s instance types the group and its partitions', async () => {
    // Prepare
    const mocked = setUp();
    // Act
    const types = await mocked.cloud.instanceTypes(BY_NAME);
    // Assess
    const m5 = types.find((it) => it.name === 'm5.large');
    expect(m5?.requirements.get('karpenter.k8s.aws/placement-group-id')?.values).toEqual(
      new Set(['pg-0123456789abcdef0']),
    );
    expect(new Set(m5?.offerings.map((o) => o.partition))).toEqual(new Set(['1', '2', '3']));
  });
});
