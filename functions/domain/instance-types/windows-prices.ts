/**
 * What a Windows Server node costs. Karpenter prices every AMI family at the Linux price (aws:
 * pkg/providers/pricing/pricing.go asks only for `operatingSystem: Linux` and the `Linux/UNIX`
 * spot descriptions), which makes a Windows node look as cheap as a Linux one. Nodesmith uses
 * live Windows prices when the Pricing API and the spot price history gave them, else the Linux
 * price plus the license-included rate AWS documents for Windows Server: $0.046 per vCPU-hour
 * (EC2 user guide, "Optimize CPUs": Windows license cost per vCPU).
 */
import type { CatalogEntry } from './catalog.ts';
import type { SpotPrices } from './offerings.ts';
import type { Currency, PriceTable } from './prices.ts';

/** Live Windows prices, by instance type: they win over the estimate. */
export interface WindowsPrices {
  readonly onDemand: PriceTable;
  readonly spot: SpotPrices;
}

/**
 * The Windows Server license per vCPU-hour. AWS documents it in USD only; China regions, priced
 * in CNY, get no estimate and keep the Linux price unless live Windows prices are known.
 */
export function windowsLicensePerVcpuHour(currency: Currency): number {
  return currency === 'USD' ? 0.046 : 0;
}

export interface WindowsPriceInput {
  readonly entry: CatalogEntry;
  readonly currency: Currency;
  readonly live: WindowsPrices | undefined;
}

function license(input: WindowsPriceInput): number {
  return input.entry.vcpu * windowsLicensePerVcpuHour(input.currency);
}

/** A type without a Linux price is not sold in the region, for Windows either. */
export function windowsOnDemandPrice(
  input: WindowsPriceInput,
  linux: number | undefined,
): number | undefined {
  if (linux === undefined) return undefined;
  return input.live?.onDemand.get(input.entry.name) ?? linux + license(input);
}

/** Per zone: the live Windows spot price, else the Linux one plus the license. */
export function windowsSpotPrices(
  input: WindowsPriceInput,
  linux: ReadonlyMap<string, number> | undefined,
): ReadonlyMap<string, number> | undefined {
  const live = input.live?.spot.get(input.entry.name);
  if (linux === undefined) return live;
  const prices = new Map([...linux].map(([zone, price]) => [zone, price + license(input)]));
  for (const [zone, price] of live ?? []) prices.set(zone, price);
  return prices;
}
