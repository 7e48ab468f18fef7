/**
 * The simulated Price List API through the unchanged SDK client and the EC2 adapter's price
 * provider: it lists the bundled on-demand prices, Linux and Windows, page by page, honouring
 * the filters the adapter sends.
 */
import { EC2Client } from '@aws-sdk/client-ec2';
import {
  GetProductsCommand,
  InvalidNextTokenException,
  PricingClient,
} from '@aws-sdk/client-pricing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ec2PriceProvider, priceOf } from '../../../../functions/adapters/ec2/pricing.ts';
import { onDemandPrices } from '../../../../functions/domain/instance-types/prices.ts';
import { pricingService } from '../../../../simulator/aws/pricing/pricing-service.ts';
import {
  type AwsTestEndpoint,
  startAwsTestEndpoint,
  TEST_REGION,
} from '../../../support/aws-test-endpoint.ts';

const now = () => new Date('2026-11-27T08:00:00Z');
let endpoint: AwsTestEndpoint;
let pricing: PricingClient;
/** No EC2 answers here: spot prices are another service's, and their refresh fails on its own. */
let ec2: EC2Client;
/** One provider for the price tests: a refresh reads all 28 pages a list has. */
let provider: Ec2PriceProvider;

beforeAll(async () => {
  endpoint = await startAwsTestEndpoint([pricingService(TEST_REGION)]);
  pricing = new PricingClient(endpoint.clientConfig);
  ec2 = new EC2Client({ ...endpoint.clientConfig, endpoint: 'http://127.0.0.1:9' });
  provider = new Ec2PriceProvider({ pricing, ec2, region: TEST_REGION, now });
});

afterAll(async () => {
  pricing.destroy();
  ec2.destroy();
  await endpoint.close();
});

function products(
  filters: Record<string, string>,
  extra: { NextToken?: string; MaxResults?: number } = {},
) {
  return pricing.send(
    new GetProductsCommand({
      ServiceCode: 'AmazonEC2',
      FormatVersion: 'aws_v1',
      Filters: Object.entries(filters).map(([Field, Value]) => ({
        Type: 'TERM_MATCH',
        Field,
        Value,
      })),
      ...extra,
    }),
  );
}

describe('the simulated Price List API', () => {
  it("gives the price provider the region's bundled on-demand prices as live ones", async () => {
    // Prepare: the provider, before its first refresh

    // Act
    const prices = await provider.prices();

    // Assess
    expect(prices.onDemandSource).toBe('live');
    expect(prices.onDemand).toEqual(onDemandPrices(TEST_REGION).prices);
  });

  it('gives Windows prices at the Linux price plus the license, for the types Windows runs on', async () => {
    // Prepare: the provider, Windows prices not yet asked for

    // Act
    const prices = await provider.prices({ windows: true });

    // Assess: m5.large has 2 vCPUs at $0.046 each an hour
    expect(prices.windows?.onDemand.get('m5.large')).toBeCloseTo(0.096 + 2 * 0.046, 10);
  });

  it('honours the filters: one type, one operating system', async () => {
    // Prepare
    const filters = {
      regionCode: TEST_REGION,
      instanceType: 'm5.large',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
    };

    // Act
    const output = await products(filters);
    const other = await products({ ...filters, tenancy: 'Dedicated' });

    // Assess
    const items = (output.PriceList ?? []).map((entry: unknown) => JSON.parse(String(entry)));
    expect(output.FormatVersion).toBe('aws_v1');
    expect(items.map((item: Parameters<typeof priceOf>[0]) => priceOf(item, 'USD'))).toEqual([
      ['m5.large', 0.096],
    ]);
    expect(other.PriceList).toEqual([]);
  });

  it('matches filter fields without regard to case, as the Price List API does', async () => {
    // Prepare
    const filters = { regionCode: TEST_REGION, instanceType: 'm5.large', operatingSystem: 'Linux' };

    // Act
    const exact = await products({ ...filters, tenancy: 'Shared' });
    const shouted = await products({ ...filters, TENANCY: 'Shared', INSTANCETYPE: 'm5.large' });

    // Assess
    expect(exact.PriceList).toHaveLength(1);
    expect(shouted.PriceList?.map(String)).toEqual(exact.PriceList?.map(String));
  });

  it('pages by NextToken, and refuses a token it did not give', async () => {
    // Prepare
    const filters = { regionCode: TEST_REGION, operatingSystem: 'Linux' };

    // Act
    const first = await products(filters, { MaxResults: 100 });
    const second = await products(filters, { MaxResults: 100, NextToken: first.NextToken });
    const bogus = await products(filters, { NextToken: 'not-a-token' }).catch(
      (err: unknown) => err,
    );

    // Assess
    expect([first.PriceList?.length, second.PriceList?.length]).toEqual([100, 100]);
    expect(second.PriceList?.[0]).not.toEqual(first.PriceList?.[0]);
    expect(bogus).toBeInstanceOf(InvalidNextTokenException);
  });
});
