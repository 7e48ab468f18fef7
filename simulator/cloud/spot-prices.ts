/**
 * Spot prices of the simulated cloud: 30–40 % of on-demand, differing by type and zone as real
 * spot markets do, the same for a seed.
 */
import type { SpotPrices } from '../../functions/domain/instance-types/offerings.ts';
import type { PriceTable } from '../../functions/domain/instance-types/prices.ts';

/** FNV-1a over the text, mixed with the seed: a stable number in [0, 1). */
function stableFraction(text: string, seed: number): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash / 4_294_967_296;
}

export function simulatedSpotPrices(
  onDemand: PriceTable,
  zones: readonly string[],
  seed: number,
): SpotPrices {
  const out = new Map<string, Map<string, number>>();
  for (const [type, price] of onDemand) {
    const byZone = new Map<string, number>();
    for (const zone of zones) {
      const discount = 0.3 + 0.1 * stableFraction(`${type}/${zone}`, seed);
      byZone.set(zone, Math.round(price * discount * 10_000) / 10_000);
    }
    out.set(type, byZone);
  }
  return out;
}
