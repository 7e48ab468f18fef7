/**
 * `limits`: the `burst` against a cluster hourly-cost limit below what the burst would cost
 * (about $4 an hour for 300 pods): Nodesmith launches until the next node would pass the limit,
 * the rest of the pods stay pending with the limit named, and the report draws cost against it.
 */
import { HOURLY_COST } from '../../functions/domain/limits/hourly-cost.ts';
import { burstScenario } from './burst.ts';
import type { Scenario } from './scenario.ts';

/** The limit, as a share of what the burst costs unlimited: a little more than half. */
const DOLLARS_PER_POD = 0.0085;

export function limitsScenario(seed: number, pods = 300): Scenario {
  const limit = (Math.round(pods * DOLLARS_PER_POD * 100) / 100).toFixed(2);
  return {
    ...burstScenario(seed, pods),
    name: 'limits',
    clusterLimits: { [HOURLY_COST]: limit },
    maxSeconds: 420,
  };
}
