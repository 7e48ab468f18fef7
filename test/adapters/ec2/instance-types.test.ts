import {
  DescribeInstanceTypeOfferingsCommand,
  DescribeInstanceTypesCommand,
  DescribeSpotPriceHistoryCommand,
  DescribeSubnetsCommand,
  type InstanceTypeInfo,
} from '@aws-sdk/client-ec2';
import { GetProductsCommand } from '@aws-sdk/client-pricing';
import { describe, expect, it, vi } from 'vitest';
import { Ec2CloudProvider } from '../../../functions/adapters/ec2/ec2-cloud-provider.ts';
import { toCatalogEntry } from '../../../functions/adapters/ec2/mappers.ts';
import type { InstanceType } from '../../../functions/domain/instance-type.ts';
import { BUNDLED_CATALOG } from '../../../functions/domain/instance-types/bundled-catalog.ts';
import { InvalidConfigError } from '../../../functions/ports/errors.ts';
import {
  aClock,
  aNodeClass,
  CLUSTER,
  ec2Error,
  fixture,
  HOUR,
  mockedClients,
  SECOND,
} from './support.ts';

const INFOS = fixture<{ InstanceTypes: InstanceTypeInfo[] }>(
  'describe-instance-types',
).InstanceTypes;

function info(name: string): InstanceTypeInfo {
  const found = INFOS.find((candidate) => candidate.InstanceType === name);
  if (found === undefined) throw new Error(`no fixture for ${name}`);
  return found;
}

function bundled(name: string) {
  return BUNDLED_CATALOG.find((entry) => entry.name === name);
}

function setUp() {
  const clients = mockedClients();
  const clock = aClock();
  const onRefreshError = vi.fn();
  clients.ec2Mock.on(DescribeSubnetsCommand).resolves(fixture('describe-subnets'));
  clients.ec2Mock.on(DescribeInstanceTypesCommand).resolves(fixture('describe-instance-types'));
  clients.ec2Mock
    .on(DescribeInstanceTypeOfferingsCommand)
    .resolves(fixture('describe-instance-type-offerings'));
  clients.ec2Mock
    .on(DescribeSpotPriceHistoryCommand)
    .resolves(fixture('describe-spot-price-history'));
  const [first, second] = fixture<{ pages: object[] }>('get-products').pages;
  clients.pricingMock.on(GetProductsCommand).resolves(first ?? {});
  clients.pricingMock.on(GetProductsCommand, { NextToken: 'page-2' }).resolves(second ?? {});
  const cloud = new Ec2CloudProvider({
    ...clients,
    cluster: CLUSTER,
    now: clock.now,
    onRefreshError,
  });
  return { ...clients, clock, cloud, onRefreshError };
}

const NODE_CLASS = aNodeClass({ instanceProfile: 'prod-nodes', role: undefined });

function offeringsOf(types: readonly InstanceType[], name: string): string[] {
  const found = types.find((it) => it.name === name);
  return (found?.offerings ?? []).map(
    (o) => `${o.zone}/${o.capacityType}/${o.pricePerHour}${o.available ? '' : '/unavailable'}`,
  );
}

describe('instance types from DescribeInstanceTypes', () => {
  it('maps a type to the catalog entry Karpenter derives from the same facts', () => {
    // Act
    const m5 = toCatalogEntry(info('m5.large'), undefined);
    const m7g = toCatalogEntry(info('m7g.large'), undefined);
    // Assess
    const { podEnis: _m5PodEnis, ...m5Expected } = bundled('m5.large') ?? {};
    const { podEnis: _m7gPodEnis, ...m7gExpected } = bundled('m7g.large') ?? {};
    expect(m5).toEqual({ ...m5Expected, placementStrategies: ['cluster', 'partition', 'spread'] });
    expect(m7g).toEqual(m7gExpected);
  });

  it('maps the placement group strategies EC2 supports for the type, when it lists them', () => {
    // Prepare
    const burstable = {
      ...info('m5.large'),
      InstanceType: 't3.medium' as const,
      PlacementGroupInfo: { SupportedStrategies: ['partition' as const, 'spread' as const] },
    };

    // Act
    const t3 = toCatalogEntry(burstable, undefined);
    const m7g = toCatalogEntry(info('m7g.large'), undefined);

    // Assess
    expect(t3?.placementStrategies).toEqual(['partition', 'spread']);
    expect(m7g).not.toHaveProperty('placementStrategies');
  });

  it('maps GPUs and Neuron accelerators to their labels', () => {
    // Act
    const g4dn = toCatalogEntry(info('g4dn.xlarge'), undefined);
    const inf2 = toCatalogEntry(info('inf2.xlarge'), undefined);
    // Assess
    expect(g4dn).toMatchObject({
      gpuName: 't4',
      gpuManufacturer: 'nvidia',
      gpuCount: 1,
      gpuMemoryMiB: 16384,
      localNvmeGB: 125,
    });
    expect(inf2).toMatchObject({
      acceleratorName: 'inferentia2',
      acceleratorManufacturer: 'aws',
      acceleratorCount: 1,
      neuronCoreCount: 2,
    });
  });

  it('keeps branch ENIs from the bundled entry and skips types that cannot boot a Kubernetes AMI', () => {
    // Act
    const m5 = toCatalogEntry(info('m5.large'), bundled('m5.large'));
    const mac = toCatalogEntry(info('mac2.metal'), undefined);
    // Assess
    expect(m5).toEqual({
      ...bundled('m5.large'),
      placementStrategies: ['cluster', 'partition', 'spread'],
    });
    expect(mac).toBeUndefined();
  });

  it('describes hvm types of both architectures and every offering by zone', async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    // Act
    await cloud.instanceTypes(NODE_CLASS);
    // Assess
    expect(ec2Mock.commandCalls(DescribeInstanceTypesCommand)[0]?.args[0].input).toEqual({
      Filters: [
        { Name: 'supported-virtualization-type', Values: ['hvm'] },
        { Name: 'processor-info.supported-architecture', Values: ['x86_64', 'arm64'] },
      ],
      NextToken: undefined,
    });
    expect(ec2Mock.commandCalls(DescribeInstanceTypeOfferingsCommand)[0]?.args[0].input).toEqual({
      LocationType: 'availability-zone',
      NextToken: undefined,
    });
  });

  it("offers each type only in the class's zones that EC2 lists for it, priced live", async () => {
    // Prepare
    const { cloud } = setUp();
    // Act
    const types = await cloud.instanceTypes(NODE_CLASS);
    // Assess
    expect(types.map((it) => it.name)).toEqual([
      'g4dn.xlarge',
      'inf2.xlarge',
      'm5.large',
      'm7g.large',
    ]);
    expect(offeringsOf(types, 'm5.large')).toEqual([
      'us-west-2a/spot/0.0398',
      'us-west-2a/on-demand/0.096',
      'us-west-2b/spot/0.0351',
      'us-west-2b/on-demand/0.096',
      'us-west-2c/spot/0.096',
      'us-west-2c/on-demand/0.096',
    ]);
    expect(offeringsOf(types, 'g4dn.xlarge').map((o) => o.split('/')[0])).toEqual([
      'us-west-2a',
      'us-west-2a',
      'us-west-2b',
      'us-west-2b',
    ]);
    // inf2 is not in the live price list: it keeps its bundled price.
    expect(offeringsOf(types, 'inf2.xlarge')).toEqual([
      'us-west-2c/spot/0.7582',
      'us-west-2c/on-demand/0.7582',
    ]);
  });

  it('marks offerings that recently had no capacity unavailable', async () => {
    // Prepare
    const { cloud } = setUp();
    // Act
    const types = await cloud.instanceTypes(NODE_CLASS, {
      unavailable: [{ instanceType: 'm5.large', zone: 'us-west-2b', capacityType: 'spot' }],
    });
    // Assess
    expect(offeringsOf(types, 'm5.large')).toContain('us-west-2b/spot/0.0351/unavailable');
    expect(offeringsOf(types, 'm5.large')).toContain('us-west-2b/on-demand/0.096');
  });

  it('falls back to the bundled catalog, offered in every subnet zone, while EC2 cannot describe types', async () => {
    // Prepare
    const { cloud, ec2Mock, onRefreshError } = setUp();
    ec2Mock.on(DescribeInstanceTypesCommand).rejects(ec2Error('UnauthorizedOperation'));
    ec2Mock.on(DescribeInstanceTypeOfferingsCommand).rejects(ec2Error('UnauthorizedOperation'));
    // Act
    const types = await cloud.instanceTypes(NODE_CLASS);
    // Assess
    expect(types).toHaveLength(BUNDLED_CATALOG.length);
    expect(new Set(offeringsOf(types, 'c5.large').map((o) => o.split('/')[0]))).toEqual(
      new Set(['us-west-2a', 'us-west-2b', 'us-west-2c']),
    );
    expect(onRefreshError).toHaveBeenCalledWith(expect.anything(), 'instance types');
  });

  it('describes instance types again after 12 hours, keeping the last good ones when that fails', async () => {
    // Prepare
    const { cloud, ec2Mock, clock } = setUp();
    await cloud.instanceTypes(NODE_CLASS);
    ec2Mock.on(DescribeInstanceTypesCommand).rejects(ec2Error('RequestLimitExceeded'));
    // Act
    clock.advance(11 * HOUR);
    await cloud.instanceTypes(NODE_CLASS);
    const within12Hours = ec2Mock.commandCalls(DescribeInstanceTypesCommand).length;
    clock.advance(HOUR + SECOND);
    const types = await cloud.instanceTypes(NODE_CLASS);
    // Assess
    expect(within12Hours).toBe(1);
    expect(ec2Mock.commandCalls(DescribeInstanceTypesCommand)).toHaveLength(2);
    expect(types.map((it) => it.name)).toEqual([
      'g4dn.xlarge',
      'inf2.xlarge',
      'm5.large',
      'm7g.large',
    ]);
  });

  it('builds the list once between refreshes, again for other unavailable offerings, a changed class or new prices', async () => {
    // Prepare
    const { cloud, clock } = setUp();
    const spotGone = {
      unavailable: [{ instanceType: 'm5.large', zone: 'us-west-2b', capacityType: 'spot' }],
    } as const;
    const first = await cloud.instanceTypes(NODE_CLASS);
    // Act
    const again = await cloud.instanceTypes(NODE_CLASS);
    const withUnavailable = await cloud.instanceTypes(NODE_CLASS, spotGone);
    const otherClass = await cloud.instanceTypes(
      aNodeClass({ instanceProfile: 'batch-nodes', role: undefined }),
    );
    clock.advance(12 * HOUR + SECOND);
    const afterRefresh = await cloud.instanceTypes(NODE_CLASS);
    // Assess: kept while nothing it was built from changed, and equal when rebuilt
    expect(again).toBe(first);
    expect(withUnavailable).not.toBe(first);
    expect(offeringsOf(withUnavailable, 'm5.large')).toContain(
      'us-west-2b/spot/0.0351/unavailable',
    );
    expect(otherClass).not.toBe(first);
    expect(afterRefresh).not.toBe(first);
    expect(afterRefresh).toEqual(first);
  });

  it('refuses a class whose subnet terms select nothing', async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    ec2Mock.on(DescribeSubnetsCommand).resolves({ Subnets: [] });
    // Act
    const listing = cloud.instanceTypes(NODE_CLASS);
    // Assess
    await expect(listing).rejects.toBeInstanceOf(InvalidConfigError);
  });
});
