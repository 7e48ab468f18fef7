/**
 * Prices of the region (aws: pkg/providers/pricing/pricing.go): on-demand from the Pricing API
 * (Linux, shared tenancy, no pre-installed software), spot from DescribeSpotPriceHistory (the
 * latest price per type and zone). Live on-demand prices are merged over the bundled table, so
 * a type the API did not list keeps its bundled price; until an API answers, the bundled table
 * is the answer.
 */
import { paginateDescribeSpotPriceHistory, type SpotPrice } from '@aws-sdk/client-ec2';
import { paginateGetProducts } from '@aws-sdk/client-pricing';
import type { SpotPrices } from '../../domain/instance-types/offerings.ts';
import { onDemandPrices } from '../../domain/instance-types/prices.ts';
import type { OfferingPrices, PriceProvider } from '../../ports/cloud-provider.ts';
import type { Ec2Api, Now, PricingApi } from './clients.ts';
import { collect } from './pages.ts';
import { RefreshInterval } from './refresh-intervals.ts';
import { RefreshedValue } from './refreshed-value.ts';

export interface PriceProviderOptions {
  readonly pricing: PricingApi;
  readonly ec2: Ec2Api;
  readonly region: string;
  readonly now: Now;
  readonly onRefreshError?: (err: unknown, what: string) => void;
}

const TERM_MATCH = 'TERM_MATCH' as const;

function productFilters(region: string) {
  return Object.entries({
    regionCode: region,
    serviceCode: 'AmazonEC2',
    preInstalledSw: 'NA',
    operatingSystem: 'Linux',
    capacitystatus: 'Used',
    marketoption: 'OnDemand',
    tenancy: 'Shared',
    productFamily: 'Compute Instance',
  }).map(([Field, Value]) => ({ Type: TERM_MATCH, Field, Value }));
}

interface PriceListItem {
  readonly product?: { readonly attributes?: { readonly instanceType?: string } };
  readonly terms?: {
    readonly OnDemand?: Readonly<
      Record<
        string,
        {
          readonly priceDimensions?: Readonly<
            Record<string, { readonly pricePerUnit?: Readonly<Record<string, string>> }>
          >;
        }
      >
    >;
  };
}

/** The price of one product, in the region's currency; zero and unparsable prices are skipped. */
export function priceOf(item: PriceListItem, currency: string): [string, number] | undefined {
  const instanceType = item.product?.attributes?.instanceType;
  if (instanceType === undefined || instanceType === '') return undefined;
  for (const term of Object.values(item.terms?.OnDemand ?? {})) {
    for (const dimension of Object.values(term.priceDimensions ?? {})) {
      const price = Number.parseFloat(dimension.pricePerUnit?.[currency] ?? '');
      if (Number.isFinite(price) && price > 0) return [instanceType, price];
    }
  }
  return undefined;
}

function toItem(entry: unknown): PriceListItem {
  return (typeof entry === 'string' ? JSON.parse(entry) : entry) as PriceListItem;
}

/** The latest price per type and zone: history can list several per pair. */
export function latestSpotPrices(history: readonly SpotPrice[]): Map<string, Map<string, number>> {
  const latest = new Map<string, Map<string, { price: number; at: number }>>();
  for (const entry of history) {
    const price = Number.parseFloat(entry.SpotPrice ?? '');
    const { InstanceType: type, AvailabilityZone: zone, Timestamp: at } = entry;
    if (type === undefined || zone === undefined || at === undefined || !Number.isFinite(price))
      continue;
    const zones = latest.get(type) ?? new Map();
    latest.set(type, zones);
    const seen = zones.get(zone);
    if (seen === undefined || seen.at < at.getTime()) zones.set(zone, { price, at: at.getTime() });
  }
  return new Map(
    [...latest].map(([type, zones]) => [type, new Map([...zones].map(([z, p]) => [z, p.price]))]),
  );
}

export class Ec2PriceProvider implements PriceProvider {
  readonly #options: PriceProviderOptions;
  readonly #onDemand: RefreshedValue<ReadonlyMap<string, number>>;
  readonly #spot: RefreshedValue<SpotPrices>;

  constructor(options: PriceProviderOptions) {
    this.#options = options;
    const refresh = {
      refreshMs: RefreshInterval.pricesMs,
      retryMs: RefreshInterval.retryAfterFailureMs,
      now: options.now,
    };
    this.#onDemand = new RefreshedValue({
      ...refresh,
      load: () => this.#fetchOnDemand(),
      onError: (err) => options.onRefreshError?.(err, 'on-demand prices'),
    });
    this.#spot = new RefreshedValue({
      ...refresh,
      load: () => this.#fetchSpot(),
      onError: (err) => options.onRefreshError?.(err, 'spot prices'),
    });
  }

  async prices(): Promise<OfferingPrices> {
    const bundled = onDemandPrices(this.#options.region);
    // The Pricing API does not serve GovCloud; its bundled table is all there is.
    const live = this.#options.region.startsWith('us-gov-')
      ? undefined
      : await this.#onDemand.current();
    const spot = await this.#spot.current();
    return {
      onDemand: live === undefined ? bundled.prices : new Map([...bundled.prices, ...live]),
      spot: spot ?? new Map(),
      currency: bundled.currency,
      onDemandSource: live === undefined ? 'bundled' : 'live',
      spotSource: spot === undefined ? 'none' : 'live',
      priceSource: bundled.priceSource,
    };
  }

  async #fetchOnDemand(): Promise<ReadonlyMap<string, number>> {
    const { region, pricing } = this.#options;
    const currency = region.startsWith('cn-') ? 'CNY' : 'USD';
    const pages = paginateGetProducts(
      { client: pricing },
      { ServiceCode: 'AmazonEC2', Filters: productFilters(region), MaxResults: 100 },
    );
    const items = await collect(pages, (page) => (page.PriceList ?? []) as readonly unknown[]);
    const prices = new Map(
      items.flatMap((entry) => {
        const price = priceOf(toItem(entry), currency);
        return price === undefined ? [] : [price];
      }),
    );
    if (prices.size === 0) throw new Error(`getting on-demand prices for ${region}: none listed`);
    return prices;
  }

  async #fetchSpot(): Promise<SpotPrices> {
    const pages = paginateDescribeSpotPriceHistory(
      { client: this.#options.ec2 },
      {
        ProductDescriptions: ['Linux/UNIX', 'Linux/UNIX (Amazon VPC)'],
        // A start time of now returns each pair's current price only.
        StartTime: this.#options.now(),
        MaxResults: 1000,
      },
    );
    const history = await collect(pages, (page) => page.SpotPriceHistory);
    const prices = latestSpotPrices(history);
    if (prices.size === 0) throw new Error('describing spot price history: no prices');
    return prices;
  }
}
