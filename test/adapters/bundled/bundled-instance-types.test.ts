import { describe, expect, it } from 'vitest';
import { BundledInstanceTypes } from '../../../functions/adapters/bundled/bundled-instance-types.ts';
import { onDemandPrices } from '../../../functions/domain/instance-types/prices.ts';
import type { LaunchableNodeClass } from '../../../functions/ports/cloud-provider.ts';

const DEFAULTS: LaunchableNodeClass = { metadata: { name: 'default' }, spec: {} };
const WITH_SUBNETS: LaunchableNodeClass = {
  ...DEFAULTS,
  status: {
    subnets: [
      { id: 'subnet-2', zone: 'eu-west-1b', zoneID: 'euw1-az2' },
      { id: 'subnet-1', zone: 'eu-west-1a', zoneID: 'euw1-az1' },
    ],
  },
};

async function zonesOf(provider: BundledInstanceTypes, nodeClass: LaunchableNodeClass) {
  const types = await provider.instanceTypes(nodeClass);
  const m5 = types.find((t) => t.name === 'm5.large');
  return [...new Set(m5?.offerings.map((o) => o.zone))];
}

describe('instance types from the bundled catalog', () => {
  const region = 'eu-west-1';
  const prices = onDemandPrices(region);

  it('offers every type in the given zones, priced from the bundled table', async () => {
    // Prepare
    const provider = new BundledInstanceTypes({ region, prices, zones: ['eu-west-1c'] });

    // Act
    const types = await provider.instanceTypes(WITH_SUBNETS);

    // Assess
    const m5 = types.find((t) => t.name === 'm5.large');
    expect(m5?.offerings.map((o) => [o.zone, o.pricePerHour])).toContainEqual([
      'eu-west-1c',
      prices.prices.get('m5.large'),
    ]);
    expect(await zonesOf(provider, WITH_SUBNETS)).toEqual(['eu-west-1c']);
  });

  it("uses the class's subnet zones when no zones are given", async () => {
    // Prepare
    const provider = new BundledInstanceTypes({ region, prices });

    // Act
    const zones = await zonesOf(provider, WITH_SUBNETS);

    // Assess
    expect(zones).toEqual(['eu-west-1a', 'eu-west-1b']);
  });

  it('falls back to the region’s zones a, b and c', async () => {
    // Prepare
    const provider = new BundledInstanceTypes({ region, prices });

    // Act
    const zones = await zonesOf(provider, DEFAULTS);

    // Assess
    expect(zones).toEqual(['eu-west-1a', 'eu-west-1b', 'eu-west-1c']);
  });
});
