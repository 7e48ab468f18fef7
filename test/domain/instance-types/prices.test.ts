import { describe, expect, it } from 'vitest';
import { onDemandPrices, PRICED_REGIONS } from '../../../functions/domain/instance-types/prices.ts';
import { buildOne } from './builders.ts';

describe('onDemandPrices', () => {
  it('uses the region’s own bundled prices', () => {
    // Prepare
    const region = 'us-east-1';

    // Act
    const result = onDemandPrices(region);

    // Assess
    expect(result.priceSource).toBe('us-east-1');
    expect(result.currency).toBe('USD');
    expect(result.prices.get('m5.large')).toBe(0.096);
  });

  it('falls back to us-east-1 prices for a region without bundled prices and says so', () => {
    // Prepare
    const region = 'eu-west-1';

    // Act
    const result = onDemandPrices(region);

    // Assess
    expect(result.priceSource).toBe('us-east-1');
    expect(result.prices).toBe(onDemandPrices('us-east-1').prices);
  });

  it('has GovCloud prices of their own', () => {
    // Prepare
    const region = 'us-gov-west-1';

    // Act
    const result = onDemandPrices(region);

    // Assess
    expect(result.priceSource).toBe('us-gov-west-1');
    expect(result.prices.get('m5.large')).toBeGreaterThan(0.096);
  });

  it('reports China prices in CNY', () => {
    // Prepare
    const region = 'cn-north-1';

    // Act
    const result = onDemandPrices(region);

    // Assess
    expect(result.priceSource).toBe('cn-north-1');
    expect(result.currency).toBe('CNY');
    expect(result.prices.get('m5.large')).toBeGreaterThan(0);
  });

  it('lists the regions with bundled prices', () => {
    // Prepare
    const expected = ['cn-north-1', 'us-east-1', 'us-gov-east-1', 'us-gov-west-1'];

    // Act
    const regions = PRICED_REGIONS;

    // Assess
    expect(regions).toEqual(expected);
  });

  it('prices offerings from the fallback table when the region has none', () => {
    // Prepare
    const { prices, priceSource } = onDemandPrices('ap-southeast-2');

    // Act
    const m5 = buildOne('m5.large', {
      region: 'ap-southeast-2',
      prices,
      zones: ['ap-southeast-2a'],
    });

    // Assess
    expect(priceSource).toBe('us-east-1');
    expect(m5.offerings.map((offering) => offering.pricePerHour)).toEqual([0.096, 0.096]);
  });
});
