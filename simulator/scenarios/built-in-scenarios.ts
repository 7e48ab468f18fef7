/** The scenarios `nodesmith simulate --scenario NAME` runs, by name, in the order it lists them. */
import { burstScenario, capacityErrorsScenario } from './burst.ts';
import {
  consolidationScenario,
  driftScenario,
  spotInterruptionScenario,
  subnetDriftScenario,
} from './disruption-scenarios.ts';
import { limitsScenario } from './limits-scenario.ts';
import { reservationsScenario } from './reservations.ts';
import type { Scenario } from './scenario.ts';
import { staticPoolsScenario } from './static-pools.ts';
import { takeoverScenario } from './takeover.ts';

export const BUILT_IN_SCENARIOS: Readonly<
  Record<string, (seed: number, pods: number) => Scenario>
> = {
  burst: burstScenario,
  'capacity-errors': capacityErrorsScenario,
  'spot-interruption': spotInterruptionScenario,
  consolidation: consolidationScenario,
  drift: driftScenario,
  'subnet-drift': subnetDriftScenario,
  limits: limitsScenario,
  takeover: takeoverScenario,
  'static-pools': staticPoolsScenario,
  reservations: reservationsScenario,
};
