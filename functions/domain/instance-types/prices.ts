/**
 * On-demand prices for a region from the bundled tables. Like Karpenter's static pricing, a
 * region without its own table uses us-east-1's as an estimate; the result names the region
 * whose prices were used so callers can say so (docs/design.md §6.1, `priceSource`).
 */
import { BUNDLED_CNY_PRICES, BUNDLED_USD_PRICES } from './bundled-catalog.ts';

/** On-demand price per hour by instance type, for one region. */
export type PriceTable = ReadonlyMap<string, number>;

export type Currency = 'USD' | 'CNY';

export interface RegionPrices {
  readonly prices: PriceTable;
  /** The region whose table was used: the requested one, or the fallback. */
  readonly priceSource: string;
  /** China tables are in CNY; every other table is in USD. */
  readonly currency: Currency;
}

export const FALLBACK_PRICE_REGION = 'us-east-1';

function tablesOf(
  raw: Readonly<Record<string, Readonly<Record<string, number>>>>,
  currency: Currency,
): ReadonlyMap<string, RegionPrices> {
  const out = new Map<string, RegionPrices>();
  for (const [region, table] of Object.entries(raw)) {
    out.set(region, { prices: new Map(Object.entries(table)), priceSource: region, currency });
  }
  return out;
}

// Built once at load: lookups then never touch inherited object keys.
const BUNDLED: ReadonlyMap<string, RegionPrices> = new Map([
  ...tablesOf(BUNDLED_USD_PRICES, 'USD'),
  ...tablesOf(BUNDLED_CNY_PRICES, 'CNY'),
]);

/** Regions with a bundled price table, sorted. */
export const PRICED_REGIONS: readonly string[] = [...BUNDLED.keys()].sort();

/** The bundled on-demand prices for `region`, or us-east-1's when the region has none. */
export function onDemandPrices(region: string): RegionPrices {
  const own = BUNDLED.get(region);
  if (own !== undefined) return own;
  const fallback = BUNDLED.get(FALLBACK_PRICE_REGION);
  if (fallback === undefined) throw new Error(`bundled prices lack ${FALLBACK_PRICE_REGION}`);
  return fallback;
}
