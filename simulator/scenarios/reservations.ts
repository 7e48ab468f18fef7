/**
 * `reservations`: the burst on a cluster whose account holds capacity reservations the
 * EC2NodeClass selects — two ODCRs and a capacity block. Nodes go into the reservations first,
 * priced as already paid for, and spot and on-demand take the rest once they are full.
 */
import { burstScenario } from './burst.ts';
import { SCENARIO_POOLS_YAML } from './pools.yaml.ts';
import type { Scenario } from './scenario.ts';

/** The scenario's pools, with reserved capacity allowed and the account's reservations selected. */
const RESERVED_POOLS_YAML = SCENARIO_POOLS_YAML.replace(
  '  securityGroupSelectorTerms:',
  `  capacityReservationSelectorTerms:
    - tags:
        karpenter.sh/discovery: simulated
  securityGroupSelectorTerms:`,
).replace('values: ["spot", "on-demand"]', 'values: ["reserved", "spot", "on-demand"]');

const DISCOVERY = { 'karpenter.sh/discovery': 'simulated' };

/** Ten hours from the run's start: the block stays active for the whole run. */
const BLOCK_ENDS = '2026-01-05T19:00:00Z';

export function reservationsScenario(seed: number, pods = 200): Scenario {
  return {
    ...burstScenario(seed, pods),
    name: 'reservations',
    manifests: [{ file: 'scenario:reservations/pools.yaml', text: RESERVED_POOLS_YAML }],
    reservations: [
      {
        id: 'cr-0m6i2xl1a',
        instanceType: 'm6i.2xlarge',
        zone: 'us-east-1a',
        count: 3,
        tags: DISCOVERY,
      },
      {
        id: 'cr-0c6i4xl1b',
        instanceType: 'c6i.4xlarge',
        zone: 'us-east-1b',
        count: 2,
        tags: DISCOVERY,
      },
      {
        id: 'cr-0r6i2xl1c',
        instanceType: 'r6i.2xlarge',
        zone: 'us-east-1c',
        count: 2,
        reservationType: 'capacity-block',
        endTime: BLOCK_ENDS,
        tags: DISCOVERY,
      },
    ],
  };
}
