import { describe, expect, it } from 'vitest';
import type { Offering } from '../../../functions/domain/instance-type.ts';
import { aNodeClass, buildOne } from './builders.ts';

const WINDOWS = aNodeClass({ amiSelectorTerms: [{ alias: 'windows2022@latest' }] });
const SPOT = new Map([['m5.large', new Map([['us-east-1a', 0.04]])]]);

function price(offerings: readonly Offering[], zone: string, capacityType: string): number {
  const offering = offerings.find((o) => o.zone === zone && o.capacityType === capacityType);
  if (offering === undefined) throw new Error(`no ${capacityType} offering in ${zone}`);
  return offering.pricePerHour;
}

describe('Windows prices', () => {
  it('adds the Windows Server license, $0.046 per vCPU-hour, to the bundled Linux price', () => {
    // Act
    const linux = buildOne('m5.large');
    const windows = buildOne('m5.large', { nodeClass: WINDOWS });

    // Assess
    expect(price(linux.offerings, 'us-east-1a', 'on-demand')).toBe(0.096);
    expect(price(windows.offerings, 'us-east-1a', 'on-demand')).toBeCloseTo(0.096 + 2 * 0.046, 9);
  });

  it('adds the license to Linux spot prices, and prices spot without one at Windows on-demand', () => {
    // Act
    const windows = buildOne('m5.large', { nodeClass: WINDOWS, spotPrices: SPOT });

    // Assess
    expect(price(windows.offerings, 'us-east-1a', 'spot')).toBeCloseTo(0.04 + 0.092, 9);
    expect(price(windows.offerings, 'us-east-1b', 'spot')).toBeCloseTo(0.188, 9);
  });

  it('uses live Windows prices where they are known', () => {
    // Prepare
    const windowsPrices = {
      onDemand: new Map([['m5.large', 0.192]]),
      spot: new Map([['m5.large', new Map([['us-east-1a', 0.11]])]]),
    };

    // Act
    const windows = buildOne('m5.large', { nodeClass: WINDOWS, spotPrices: SPOT, windowsPrices });

    // Assess
    expect(price(windows.offerings, 'us-east-1a', 'on-demand')).toBe(0.192);
    expect(price(windows.offerings, 'us-east-1a', 'spot')).toBe(0.11);
    expect(price(windows.offerings, 'us-east-1c', 'spot')).toBe(0.192);
  });

  it('leaves Linux classes and unpriced types alone, and estimates no license in CNY', () => {
    // Act
    const linux = buildOne('m5.large', {
      spotPrices: SPOT,
      windowsPrices: { onDemand: new Map([['m5.large', 1]]), spot: new Map() },
    });
    const unpriced = buildOne('m5.large', { nodeClass: WINDOWS, prices: new Map() });
    const china = buildOne('m5.large', {
      nodeClass: WINDOWS,
      currency: 'CNY',
      prices: new Map([['m5.large', 0.7]]),
    });

    // Assess
    expect(price(linux.offerings, 'us-east-1a', 'on-demand')).toBe(0.096);
    expect(price(linux.offerings, 'us-east-1a', 'spot')).toBe(0.04);
    expect(unpriced.offerings).toEqual([]);
    expect(price(china.offerings, 'us-east-1a', 'on-demand')).toBe(0.7);
  });
});
