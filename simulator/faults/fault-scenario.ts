/**
 * The cluster life a fault run goes through, drawn from its seed: a burst of a few dozen pods
 * on the built-in pools, then, each by chance, a scale-down that leaves nodes to consolidate
 * (under a PodDisruptionBudget) and EC2 reclaiming spot nodes; some offerings have no capacity
 * from the start, across zones. Small on purpose: hundreds of runs fit in minutes.
 */
import { burstScenario } from '../scenarios/burst.ts';
import { consolidationScenario } from '../scenarios/disruption-scenarios.ts';
import { SCENARIO_POOLS_YAML } from '../scenarios/pools.yaml.ts';
import type { Random } from '../scenarios/random.ts';
import type { Scenario, ScenarioStep } from '../scenarios/scenario.ts';

/**
 * The built-in pools narrowed to a few dozen instance types: the faults are about what happens
 * around a launch, not what is chosen, and a pass plans many times faster over a short list.
 */
const FAMILIES = ['c6i', 'c7g', 'm6i', 'm7g', 'r6i', 'r7g'];
const SIZES = ['large', 'xlarge', '2xlarge'];

/** The instance types a fault run's pool may launch. */
export const FAULT_INSTANCE_TYPES = FAMILIES.flatMap((f) => SIZES.map((s) => `${f}.${s}`));

const FAULT_POOLS_YAML = SCENARIO_POOLS_YAML.replace(
  '      expireAfter:',
  `        - key: karpenter.k8s.aws/instance-size
          operator: In
          values: ${JSON.stringify(SIZES)}
        - key: karpenter.k8s.aws/instance-family
          operator: In
          values: ${JSON.stringify(FAMILIES)}
      expireAfter:`,
);

/** The burst has settled by then in an undisturbed run. */
const AFTER_BURST = 150;

/** Long enough for a node that never registers to time out (15 min) and its pods to move. */
const MAX_SECONDS = 2400;

function subset<T>(random: Random, items: readonly T[], chance: number): T[] {
  return items.filter(() => random() < chance);
}

export function faultScenario(seed: number, random: Random): Scenario {
  const pods = 6 + Math.floor(random() * 19);
  const burst = burstScenario(seed, pods);
  const scaleDown = random() < 0.5;
  const interrupt = random() < 0.5;
  const withBudget = scaleDown ? consolidationScenario(seed, pods) : undefined;
  const steps: ScenarioStep[] = [...burst.steps];
  if (withBudget !== undefined) steps.push(...withBudget.steps.slice(burst.steps.length));
  if (interrupt) {
    steps.push({
      at: AFTER_BURST + (scaleDown ? 60 : 0),
      description: 'EC2 reclaims spot capacity',
      pods: [],
      interruptSpot: 1 + Math.floor(random() * 2),
    });
  }
  return {
    ...burst,
    name: 'faults',
    manifests: [{ file: 'scenario:faults/pools.yaml', text: FAULT_POOLS_YAML }],
    ...(withBudget?.cluster === undefined ? {} : { cluster: withBudget.cluster }),
    steps,
    exhaustCheapest: Math.floor(random() * 16),
    spotExhaustedZones: subset(random, burst.zones, 0.3),
    maxSeconds: MAX_SECONDS,
    quietSeconds: scaleDown || interrupt ? 240 : 0,
  };
}
