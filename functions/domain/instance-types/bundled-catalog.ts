/**
 * The instance-type catalog and on-demand price tables that ship with Nodesmith, so planning
 * works offline and before the pricing API has answered. The JSON is bundled at build time;
 * nothing is read from disk at run time. Provenance and caveats: data/README.md.
 */
import type { CatalogEntry } from './catalog.ts';
import entries from './data/ec2-instance-types.json' with { type: 'json' };
import cnyPrices from './data/ec2-on-demand-prices-cny.json' with { type: 'json' };
import usdPrices from './data/ec2-on-demand-prices-usd.json' with { type: 'json' };

/** Per region, per instance type: price per hour in the table's currency. */
type RawPriceTables = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** Every launchable instance type, sorted by name. */
export const BUNDLED_CATALOG: readonly CatalogEntry[] = entries as readonly CatalogEntry[];

/** Linux, shared-tenancy on-demand list prices in USD: us-east-1 and the GovCloud regions. */
export const BUNDLED_USD_PRICES: RawPriceTables = usdPrices;

/** The same for China regions, in CNY as the AWS Pricing API reports them there. */
export const BUNDLED_CNY_PRICES: RawPriceTables = cnyPrices;
