/**
 * Prices of the region (aws: pkg/providers/pricing/pricing.go): on-demand from the Pricing API
 * (Linux, shared tenancy, no pre-installed software), spot from DescribeSpotPriceHistory (the
 * latest price per type and zone). Live on-demand prices are merged over the bundled table, so
 * a type the API did not list keeps its bundled price; until an API answers, the bundled table
 * is the answer. Windows prices (license included) are read the same way, but only once a
 * Windows AMI family asks for them; Karpenter reads none and prices Windows nodes as Linux.
 */
import { paginateDescribeSpotPriceHistory, type SpotPrice } from '@aws-sdk/client-ec2';
import { paginateGetProducts } from '@aws-sdk/client-pricing';
import type { SpotPrices } from '../../domain/instance-types/offerings.ts';
import { onDemandPrices } from '../../domain/instance-types/prices.ts';
import type { WindowsPrices } from '../../domain/instance-types/windows-prices.ts';
import type { OfferingPrices, PriceOptions, PriceProvider } from '../../ports/cloud-provider.ts';
import type { Ec2Api, Now, PricingApi } from './clients.ts';
import { LastBuilt } from './last-built.ts';
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

/** The operating systems priced: the Pricing API's `operatingSystem` values. */
export type PricedOs = 'Linux' | 'Windows';

/** The spot price history's product descriptions, EC2-Classic's and the VPC's. */
const SPOT_PRODUCTS: Readonly<Record<PricedOs, string[]>> = {
  Linux: ['Linux/UNIX', 'Linux/UNIX (Amazon VPC)'],
  Windows: ['Windows', 'Windows (Amazon VPC)'],
};

/** Windows comes license included (`No License required`) or bring-your-own; only the first. */
function productFilters(region: string, os: PricedOs) {
  return Object.entries({
    regionCode: region,
    serviceCode: 'AmazonEC2',
    preInstalledSw: 'NA',
    operatingSystem: os,
    capacitystatus: 'Used',
    marketoption: 'OnDemand',
    tenancy: 'Shared',
    productFamily: 'Compute Instance',
    ...(os === 'Windows' ? { licenseModel: 'No License required' } : {}),
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

/**
 * The SDK hands each entry as a String object (its LazyJsonString, for the member's JSON media
 * type), not a primitive string; both are parsed.
 */
function toItem(entry: unknown): PriceListItem {
  const text = typeof entry === 'string' || entry instanceof String ? String(entry) : undefined;
  return (text === undefined ? entry : JSON.parse(text)) as PriceListItem;
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

interface PriceValues {
  readonly onDemand: RefreshedValue<ReadonlyMap<string, number>>;
  readonly spot: RefreshedValue<SpotPrices>;
}

export class Ec2PriceProvider implements PriceProvider {
  readonly #options: PriceProviderOptions;
  readonly #linux: PriceValues;
  readonly #windows: PriceValues;
  readonly #linuxPrices = new LastBuilt<OfferingPrices>();
  readonly #windowsLists = new LastBuilt<WindowsPrices>();
  readonly #withWindows = new LastBuilt<OfferingPrices>();

  constructor(options: PriceProviderOptions) {
    this.#options = options;
    this.#linux = this.#values('Linux');
    this.#windows = this.#values('Windows');
  }

  /** Each refreshed on its own: a failing spot history keeps the live on-demand prices. */
  #values(os: PricedOs): PriceValues {
    const { now, onRefreshError } = this.#options;
    const refresh = {
      refreshMs: RefreshInterval.pricesMs,
      retryMs: RefreshInterval.retryAfterFailureMs,
      now,
    };
    const what = os === 'Linux' ? '' : `${os} `;
    return {
      onDemand: new RefreshedValue({
        ...refresh,
        load: () => this.#fetchOnDemand(os),
        onError: (err) => onRefreshError?.(err, `${what}on-demand prices`),
      }),
      spot: new RefreshedValue({
        ...refresh,
        load: () => this.#fetchSpot(os),
        onError: (err) => onRefreshError?.(err, `${what}spot prices`),
      }),
    };
  }

  /**
   * The same object until a price list is refreshed, so what is built from the prices (the
   * instance types, their templates) can be kept for as long as they hold.
   */
  async prices(options: PriceOptions = {}): Promise<OfferingPrices> {
    // Two lists of pages each, from two services: a cold container reads them side by side.
    const [live, spot] = await Promise.all([
      this.#liveOnDemand(this.#linux),
      this.#linux.spot.current(),
    ]);
    const linux = this.#linuxPrices.get([live, spot], () => this.#merged(live, spot));
    if (options.windows !== true) return linux;
    const windows = await this.#windowsPrices();
    if (windows === undefined) return linux;
    return this.#withWindows.get([linux, windows], () => ({ ...linux, windows }));
  }

  #merged(
    live: ReadonlyMap<string, number> | undefined,
    spot: SpotPrices | undefined,
  ): OfferingPrices {
    const bundled = onDemandPrices(this.#options.region);
    return {
      onDemand: live === undefined ? bundled.prices : new Map([...bundled.prices, ...live]),
      spot: spot ?? new Map(),
      currency: bundled.currency,
      onDemandSource: live === undefined ? 'bundled' : 'live',
      spotSource: spot === undefined ? 'none' : 'live',
      priceSource: bundled.priceSource,
    };
  }

  /** The Pricing API does not serve GovCloud; its bundled table is all there is. */
  #liveOnDemand(values: PriceValues): Promise<ReadonlyMap<string, number> | undefined> {
    if (this.#options.region.startsWith('us-gov-')) return Promise.resolve(undefined);
    return values.onDemand.current();
  }

  async #windowsPrices(): Promise<WindowsPrices | undefined> {
    const [onDemand, spot] = await Promise.all([
      this.#liveOnDemand(this.#windows),
      this.#windows.spot.current(),
    ]);
    if (onDemand === undefined && spot === undefined) return undefined;
    return this.#windowsLists.get([onDemand, spot], () => ({
      onDemand: onDemand ?? new Map(),
      spot: spot ?? new Map(),
    }));
  }

  async #fetchOnDemand(os: PricedOs): Promise<ReadonlyMap<string, number>> {
    const { region, pricing } = this.#options;
    const currency = region.startsWith('cn-') ? 'CNY' : 'USD';
    const pages = paginateGetProducts(
      { client: pricing },
      { ServiceCode: 'AmazonEC2', Filters: productFilters(region, os), MaxResults: 100 },
    );
    const items = await collect(pages, (page) => (page.PriceList ?? []) as readonly unknown[]);
    const prices = new Map(
      items.flatMap((entry) => {
        const price = priceOf(toItem(entry), currency);
        return price === undefined ? [] : [price];
      }),
    );
    if (prices.size === 0) {
      throw new Error(`getting ${os} on-demand prices for ${region}: none listed`);
    }
    return prices;
  }

  async #fetchSpot(os: PricedOs): Promise<SpotPrices> {
    const pages = paginateDescribeSpotPriceHistory(
      { client: this.#options.ec2 },
      {
        ProductDescriptions: SPOT_PRODUCTS[os],
        // A start time of now returns each pair's current price only.
        StartTime: this.#options.now(),
        MaxResults: 1000,
      },
    );
    const history = await collect(pages, (page) => page.SpotPriceHistory);
    const prices = latestSpotPrices(history);
    if (prices.size === 0) throw new Error(`describing ${os} spot price history: no prices`);
    return prices;
  }
}
