import { DescribeSpotPriceHistoryCommand, DescribeSubnetsCommand } from '@aws-sdk/client-ec2';
import { GetProductsCommand } from '@aws-sdk/client-pricing';
import { describe, expect, it, vi } from 'vitest';
import type { ClusterSettings } from '../../../functions/adapters/ec2/cluster-settings.ts';
import { Ec2CloudProvider } from '../../../functions/adapters/ec2/ec2-cloud-provider.ts';
import { onDemandPrices } from '../../../functions/domain/instance-types/prices.ts';
import {
  aClock,
  aNodeClass,
  CLUSTER,
  ec2Error,
  fixture,
  HOUR,
  MINUTE,
  mockedClients,
  SECOND,
} from './support.ts';

function setUp(cluster: ClusterSettings = CLUSTER) {
  const clients = mockedClients();
  const clock = aClock();
  const onRefreshError = vi.fn();
  const [first, second] = fixture<{ pages: object[] }>('get-products').pages;
  clients.pricingMock.on(GetProductsCommand).resolves(first ?? {});
  clients.pricingMock.on(GetProductsCommand, { NextToken: 'page-2' }).resolves(second ?? {});
  clients.ec2Mock
    .on(DescribeSpotPriceHistoryCommand)
    .resolves(fixture('describe-spot-price-history'));
  const cloud = new Ec2CloudProvider({ ...clients, cluster, now: clock.now, onRefreshError });
  return { ...clients, clock, cloud, onRefreshError };
}

const BUNDLED = onDemandPrices('us-west-2');

describe('on-demand prices', () => {
  it('asks the Pricing API for Linux shared-tenancy on-demand prices of the region, every page', async () => {
    // Prepare
    const { cloud, pricingMock } = setUp();
    const [first, second] = fixture<{ pages: object[] }>('get-products').pages;
    // The paginator reuses one input object, so each request is copied as it is sent.
    const inputs: { NextToken?: string }[] = [];
    pricingMock.on(GetProductsCommand).callsFake((input: { NextToken?: string }) => {
      inputs.push(structuredClone(input));
      return (input.NextToken === 'page-2' ? second : first) ?? {};
    });
    // Act
    await cloud.prices();
    // Assess
    expect(inputs).toHaveLength(2);
    expect(inputs[0]).toEqual({
      ServiceCode: 'AmazonEC2',
      MaxResults: 100,
      NextToken: undefined,
      Filters: [
        { Type: 'TERM_MATCH', Field: 'regionCode', Value: 'us-west-2' },
        { Type: 'TERM_MATCH', Field: 'serviceCode', Value: 'AmazonEC2' },
        { Type: 'TERM_MATCH', Field: 'preInstalledSw', Value: 'NA' },
        { Type: 'TERM_MATCH', Field: 'operatingSystem', Value: 'Linux' },
        { Type: 'TERM_MATCH', Field: 'capacitystatus', Value: 'Used' },
        { Type: 'TERM_MATCH', Field: 'marketoption', Value: 'OnDemand' },
        { Type: 'TERM_MATCH', Field: 'tenancy', Value: 'Shared' },
        { Type: 'TERM_MATCH', Field: 'productFamily', Value: 'Compute Instance' },
      ],
    });
    expect(inputs[1]?.NextToken).toBe('page-2');
  });

  it('merges live prices over the bundled table', async () => {
    // Prepare
    const { cloud } = setUp();
    // Act
    const prices = await cloud.prices();
    // Assess
    expect(prices.onDemandSource).toBe('live');
    expect(prices.currency).toBe('USD');
    expect(prices.priceSource).toBe('us-east-1');
    expect(prices.onDemand.get('m5.large')).toBe(0.096);
    expect(prices.onDemand.get('g4dn.xlarge')).toBe(0.526);
    expect(prices.onDemand.get('c5.large')).toBe(BUNDLED.prices.get('c5.large'));
  });

  it('reads entries the SDK hands as String objects, as it deserializes the JSON media type', async () => {
    // Prepare
    const { cloud, pricingMock } = setUp();
    const [first] = fixture<{ pages: { PriceList: string[] }[] }>('get-products').pages;
    const boxed = (first?.PriceList ?? []).map((entry) => new String(entry));
    pricingMock.on(GetProductsCommand).resolves({ PriceList: boxed as unknown as string[] });
    // Act
    const prices = await cloud.prices();
    // Assess
    expect(prices.onDemandSource).toBe('live');
    expect(prices.onDemand.get('m5.large')).toBe(0.096);
  });

  it('answers with the bundled table until the Pricing API has answered once', async () => {
    // Prepare
    const { cloud, pricingMock, ec2Mock, onRefreshError } = setUp();
    pricingMock.on(GetProductsCommand).rejects(new Error('connect ETIMEDOUT'));
    ec2Mock.on(DescribeSpotPriceHistoryCommand).rejects(ec2Error('UnauthorizedOperation'));
    // Act
    const prices = await cloud.prices();
    // Assess
    expect(prices.onDemandSource).toBe('bundled');
    expect(prices.spotSource).toBe('none');
    expect(prices.onDemand).toBe(BUNDLED.prices);
    expect(prices.spot.size).toBe(0);
    expect(onRefreshError).toHaveBeenCalledWith(expect.any(Error), 'on-demand prices');
    expect(onRefreshError).toHaveBeenCalledWith(expect.anything(), 'spot prices');
  });

  it('keeps the last good prices when a refresh fails, and retries after five minutes', async () => {
    // Prepare
    const { cloud, pricingMock, clock } = setUp();
    await cloud.prices();
    pricingMock.on(GetProductsCommand).rejects(new Error('ThrottlingException'));
    // Act
    clock.advance(12 * HOUR + SECOND);
    const afterFailure = await cloud.prices();
    clock.advance(4 * MINUTE);
    await cloud.prices();
    const callsBeforeRetry = pricingMock.commandCalls(GetProductsCommand).length;
    clock.advance(MINUTE + SECOND);
    await cloud.prices();
    // Assess
    expect(afterFailure.onDemandSource).toBe('live');
    expect(afterFailure.onDemand.get('m5.large')).toBe(0.096);
    expect(callsBeforeRetry).toBe(3);
    expect(pricingMock.commandCalls(GetProductsCommand)).toHaveLength(4);
  });

  it('answers with the same prices until a list is refreshed', async () => {
    // Prepare
    const { cloud, clock } = setUp();
    const first = await cloud.prices();
    // Act
    const again = await cloud.prices();
    clock.advance(12 * HOUR + SECOND);
    const refreshed = await cloud.prices();
    // Assess: what is built from the prices can be kept for as long as they are the same object
    expect(again).toBe(first);
    expect(refreshed).not.toBe(first);
    expect(refreshed).toEqual(first);
  });

  it('asks nothing for GovCloud, where the Pricing API does not answer', async () => {
    // Prepare
    const { cloud, pricingMock } = setUp({ ...CLUSTER, region: 'us-gov-west-1' });
    // Act
    const prices = await cloud.prices();
    // Assess
    expect(pricingMock.commandCalls(GetProductsCommand)).toHaveLength(0);
    expect(prices.priceSource).toBe('us-gov-west-1');
    expect(prices.onDemandSource).toBe('bundled');
  });
});

describe('spot prices', () => {
  it('asks for the current Linux spot price of every type and zone', async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    // Act
    await cloud.prices();
    // Assess
    expect(ec2Mock.commandCalls(DescribeSpotPriceHistoryCommand)[0]?.args[0].input).toEqual({
      ProductDescriptions: ['Linux/UNIX', 'Linux/UNIX (Amazon VPC)'],
      StartTime: new Date('2024-08-10T09:00:00.000Z'),
      MaxResults: 1000,
      NextToken: undefined,
    });
  });

  it('asks for them while the Pricing API’s pages are still on their way', async () => {
    // Prepare: the on-demand price list answers only once the spot history has been asked for
    const { cloud, ec2Mock, pricingMock } = setUp();
    const [first] = fixture<{ pages: object[] }>('get-products').pages;
    let spotAsked!: () => void;
    const asked = new Promise<void>((resolve) => {
      spotAsked = resolve;
    });
    ec2Mock.on(DescribeSpotPriceHistoryCommand).callsFake(() => {
      spotAsked();
      return fixture('describe-spot-price-history');
    });
    pricingMock.on(GetProductsCommand).callsFake(async () => {
      await asked;
      return { ...first, NextToken: undefined };
    });

    // Act
    const prices = await cloud.prices();

    // Assess
    expect(prices.onDemandSource).toBe('live');
    expect(prices.spotSource).toBe('live');
  });

  it('keeps the latest price of each type and zone', async () => {
    // Prepare
    const { cloud } = setUp();
    // Act
    const prices = await cloud.prices();
    // Assess
    expect(prices.spotSource).toBe('live');
    expect(Object.fromEntries(prices.spot.get('m5.large') ?? [])).toEqual({
      'us-west-2a': 0.0398,
      'us-west-2b': 0.0351,
    });
    expect(Object.fromEntries(prices.spot.get('m7g.large') ?? [])).toEqual({
      'us-west-2a': 0.0309,
    });
  });

  it('describes spot prices again only after 12 hours, keeping the last good ones on failure', async () => {
    // Prepare
    const { cloud, ec2Mock, clock } = setUp();
    await cloud.prices();
    ec2Mock.on(DescribeSpotPriceHistoryCommand).rejects(ec2Error('RequestLimitExceeded'));
    // Act
    clock.advance(12 * HOUR - SECOND);
    await cloud.prices();
    const within12Hours = ec2Mock.commandCalls(DescribeSpotPriceHistoryCommand).length;
    clock.advance(2 * SECOND);
    const prices = await cloud.prices();
    // Assess
    expect(within12Hours).toBe(1);
    expect(ec2Mock.commandCalls(DescribeSpotPriceHistoryCommand)).toHaveLength(2);
    expect(prices.spot.get('m5.large')?.get('us-west-2b')).toBe(0.0351);
  });
});

/** One license-included Windows product, as the Pricing API lists it. */
const WINDOWS_PRODUCT = JSON.stringify({
  product: { attributes: { instanceType: 'm5.large', operatingSystem: 'Windows' } },
  terms: { OnDemand: { t: { priceDimensions: { d: { pricePerUnit: { USD: '0.1880000000' } } } } } },
});

function withWindowsPrices() {
  const clients = setUp();
  const inputs: { Filters?: { Field?: string; Value?: string }[] }[] = [];
  clients.pricingMock.on(GetProductsCommand).callsFake((input) => {
    inputs.push(structuredClone(input));
    const windows = input.Filters?.some((f: { Value?: string }) => f.Value === 'Windows');
    return windows ? { PriceList: [WINDOWS_PRODUCT] } : { PriceList: [] };
  });
  clients.ec2Mock
    .on(DescribeSpotPriceHistoryCommand, {
      ProductDescriptions: ['Windows', 'Windows (Amazon VPC)'],
    })
    .resolves({
      SpotPriceHistory: [
        {
          InstanceType: 'm5.large',
          AvailabilityZone: 'us-west-2a',
          SpotPrice: '0.1300',
          Timestamp: new Date('2024-08-10T08:59:00Z'),
        },
      ],
    });
  return { ...clients, inputs };
}

describe('Windows prices', () => {
  it('asks for license-included Windows prices only for a Windows AMI family', async () => {
    // Prepare
    const { cloud, ec2Mock, inputs } = withWindowsPrices();

    // Act
    const linux = await cloud.prices();
    const windows = await cloud.prices({ windows: true });

    // Assess
    expect(linux.windows).toBeUndefined();
    const osFilters = inputs.map(
      (input) => input.Filters?.find((f) => f.Field === 'operatingSystem')?.Value,
    );
    expect(osFilters).toEqual(['Linux', 'Windows']);
    expect(inputs[1]?.Filters).toContainEqual({
      Type: 'TERM_MATCH',
      Field: 'licenseModel',
      Value: 'No License required',
    });
    expect(
      ec2Mock
        .commandCalls(DescribeSpotPriceHistoryCommand)
        .map((call) => call.args[0].input.ProductDescriptions),
    ).toEqual([
      ['Linux/UNIX', 'Linux/UNIX (Amazon VPC)'],
      ['Windows', 'Windows (Amazon VPC)'],
    ]);
    expect(windows.windows?.onDemand.get('m5.large')).toBe(0.188);
    expect(windows.windows?.spot.get('m5.large')?.get('us-west-2a')).toBe(0.13);
  });

  it('prices a Windows class above the Linux price of the same type', async () => {
    // Prepare
    const { cloud, ec2Mock } = withWindowsPrices();
    ec2Mock.on(DescribeSubnetsCommand).resolves(fixture('describe-subnets'));
    const base = { instanceProfile: 'prod-nodes', role: undefined };

    // Act
    const [linux, windows] = await Promise.all([
      cloud.instanceTypes(aNodeClass(base)),
      cloud.instanceTypes(
        aNodeClass({ ...base, amiSelectorTerms: [{ alias: 'windows2022@latest' }] }),
      ),
    ]);

    // Assess
    const onDemand = (types: typeof linux) =>
      types
        .find((t) => t.name === 'm5.large')
        ?.offerings.find((o) => o.capacityType === 'on-demand')?.pricePerHour;
    expect(onDemand(windows)).toBe(0.188);
    expect(onDemand(windows)).toBeGreaterThan(onDemand(linux) ?? Infinity);
  });
});
