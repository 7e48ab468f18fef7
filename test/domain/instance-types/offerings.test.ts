import { describe, expect, it } from 'vitest';
import { offeringKey } from '../../../functions/domain/instance-types/offerings.ts';
import { buildOne, labelsOf } from './builders.ts';

describe('offerings', () => {
  it('offers spot and on-demand in every zone at the region’s on-demand price', () => {
    // Prepare
    const zones = ['us-east-1b', 'us-east-1a'];

    // Act
    const m5 = buildOne('m5.large', { zones });

    // Assess
    expect(m5.offerings).toEqual([
      { zone: 'us-east-1a', capacityType: 'spot', pricePerHour: 0.096, available: true },
      { zone: 'us-east-1a', capacityType: 'on-demand', pricePerHour: 0.096, available: true },
      { zone: 'us-east-1b', capacityType: 'spot', pricePerHour: 0.096, available: true },
      { zone: 'us-east-1b', capacityType: 'on-demand', pricePerHour: 0.096, available: true },
    ]);
  });

  it('prices spot offerings from live spot prices where known, else at the on-demand price', () => {
    // Prepare
    const spotPrices = new Map([['m5.large', new Map([['us-east-1a', 0.0354]])]]);

    // Act
    const m5 = buildOne('m5.large', { zones: ['us-east-1a', 'us-east-1b'], spotPrices });

    // Assess
    const spot = m5.offerings.filter((offering) => offering.capacityType === 'spot');
    expect(spot.map((offering) => [offering.zone, offering.pricePerHour])).toEqual([
      ['us-east-1a', 0.0354],
      ['us-east-1b', 0.096],
    ]);
  });

  it('marks offerings with a recent capacity error unavailable and keeps the rest', () => {
    // Prepare
    const unavailable = new Set([offeringKey('m5.large', 'us-east-1a', 'spot')]);

    // Act
    const m5 = buildOne('m5.large', { zones: ['us-east-1a', 'us-east-1b'], unavailable });

    // Assess
    expect(m5.offerings.filter((offering) => !offering.available)).toEqual([
      { zone: 'us-east-1a', capacityType: 'spot', pricePerHour: 0.096, available: false },
    ]);
    expect(m5.offerings.filter((offering) => offering.available)).toHaveLength(3);
  });

  it('keeps zones and capacity types of unavailable offerings in the requirements', () => {
    // Prepare
    const unavailable = new Set([
      offeringKey('m5.large', 'us-east-1a', 'spot'),
      offeringKey('m5.large', 'us-east-1a', 'on-demand'),
    ]);

    // Act
    const m5 = buildOne('m5.large', { zones: ['us-east-1a', 'us-east-1b'], unavailable });

    // Assess
    expect(labelsOf(m5.requirements)).toMatchObject({
      'topology.kubernetes.io/zone': ['us-east-1a', 'us-east-1b'],
      'karpenter.sh/capacity-type': ['on-demand', 'spot'],
    });
  });

  it('carries each zone’s id on its offerings', () => {
    // Prepare
    const zoneIds = { 'us-east-1a': 'use1-az4' };

    // Act
    const m5 = buildOne('m5.large', { zones: ['us-east-1a'], zoneIds });

    // Assess
    expect(m5.offerings.map((offering) => offering.zoneId)).toEqual(['use1-az4', 'use1-az4']);
  });

  it('has no offerings, and so no zone or capacity type, without an on-demand price', () => {
    // Prepare
    const prices = new Map<string, number>();

    // Act
    const m5 = buildOne('m5.large', { prices });

    // Assess
    expect(m5.offerings).toEqual([]);
    expect(labelsOf(m5.requirements)).toMatchObject({
      'topology.kubernetes.io/zone': 'DoesNotExist',
      'karpenter.sh/capacity-type': 'DoesNotExist',
    });
  });

  it('names an offering by instance type, zone and capacity type', () => {
    // Prepare
    const parts = ['c6g.large', 'us-west-2b', 'on-demand'] as const;

    // Act
    const key = offeringKey(...parts);

    // Assess
    expect(key).toBe('c6g.large/us-west-2b/on-demand');
  });
});
