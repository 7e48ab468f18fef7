/**
 * EC2's on-demand products as the Price List API lists them (Pricing API reference, GetProducts;
 * the `aws_v1` price list format): one product per instance type of the region's bundled price
 * table and operating system, Linux at the bundled price and Windows (license included) at the
 * estimate the domain makes when no live price is known, so a deployed run prices as an
 * in-process one does. The attributes are the ones the EC2 adapter filters on.
 */
import { createHash } from 'node:crypto';
import { BUNDLED_CATALOG } from '../../../functions/domain/instance-types/bundled-catalog.ts';
import { onDemandPrices } from '../../../functions/domain/instance-types/prices.ts';
import { windowsOnDemandPrice } from '../../../functions/domain/instance-types/windows-prices.ts';

export interface PriceListProduct {
  readonly product: {
    readonly productFamily: string;
    readonly sku: string;
    readonly attributes: Readonly<Record<string, string>>;
  };
  readonly serviceCode: string;
  readonly terms: { readonly OnDemand: Readonly<Record<string, unknown>> };
  readonly version: string;
  readonly publicationDate: string;
}

/** The codes AWS gives the on-demand term and its hourly price dimension. */
const ON_DEMAND_TERM = 'JRTCKXETXF';
const HOURLY_RATE = '6YS6EN2CT7';
const PUBLISHED = '2026-11-01T00:00:00Z';
const CATALOG = new Map(BUNDLED_CATALOG.map((entry) => [entry.name, entry]));

function skuOf(...parts: string[]): string {
  return createHash('sha256').update(parts.join('/')).digest('hex').slice(0, 16).toUpperCase();
}

function product(
  region: string,
  instanceType: string,
  os: 'Linux' | 'Windows',
  price: { amount: number; currency: string },
): PriceListProduct {
  const sku = skuOf(region, instanceType, os);
  const term = `${sku}.${ON_DEMAND_TERM}`;
  const dimension = `${term}.${HOURLY_RATE}`;
  return {
    product: {
      productFamily: 'Compute Instance',
      sku,
      attributes: {
        servicecode: 'AmazonEC2',
        regionCode: region,
        instanceType,
        operatingSystem: os,
        tenancy: 'Shared',
        preInstalledSw: 'NA',
        capacitystatus: 'Used',
        marketoption: 'OnDemand',
        licenseModel: 'No License required',
      },
    },
    serviceCode: 'AmazonEC2',
    terms: {
      OnDemand: {
        [term]: {
          offerTermCode: ON_DEMAND_TERM,
          sku,
          effectiveDate: PUBLISHED,
          priceDimensions: {
            [dimension]: {
              rateCode: dimension,
              unit: 'Hrs',
              description: `${price.currency} ${price.amount} per On Demand ${os} ${instanceType} Instance Hour`,
              beginRange: '0',
              endRange: 'Inf',
              appliesTo: [],
              pricePerUnit: { [price.currency]: price.amount.toFixed(10) },
            },
          },
          termAttributes: {},
        },
      },
    },
    version: PUBLISHED,
    publicationDate: PUBLISHED,
  };
}

/** Every EC2 on-demand product of the region, Linux then Windows per type, by type name. */
export function ec2Products(region: string): PriceListProduct[] {
  const { prices, currency } = onDemandPrices(region);
  return [...prices]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([instanceType, linux]) => {
      const entry = CATALOG.get(instanceType);
      const windows = entry && windowsOnDemandPrice({ entry, currency, live: undefined }, linux);
      return [
        product(region, instanceType, 'Linux', { amount: linux, currency }),
        ...(windows === undefined
          ? []
          : [product(region, instanceType, 'Windows', { amount: windows, currency })]),
      ];
    });
}
