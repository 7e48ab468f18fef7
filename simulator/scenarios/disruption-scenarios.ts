/**
 * Scenarios that take nodes away, each starting from the `burst` cluster once it has settled:
 * `spot-interruption` (EC2 warns it reclaims two spot nodes), `consolidation` (web and workers
 * scale down, leaving nodes underused; web has a PodDisruptionBudget), `drift` (the
 * EC2NodeClass moves to a newer AMI, so every node has drifted and rolls within the budget) and
 * `subnet-drift` (its subnet selector leaves one zone's subnet, whose nodes roll).
 */
import type { JsonObject } from '../api-server/json.ts';
import { burstScenario } from './burst.ts';
import { SCENARIO_POOLS_YAML } from './pools.yaml.ts';
import type { Scenario } from './scenario.ts';

/** The burst has settled by then: every pod runs. */
const AFTER_BURST = 240;

function keyOf(pod: JsonObject): string {
  const meta = pod.metadata as JsonObject;
  return `${String(meta.namespace ?? 'default')}/${String(meta.name)}`;
}

function appOf(pod: JsonObject): string | undefined {
  return ((pod.metadata as JsonObject).labels as Record<string, string> | undefined)?.app;
}

export function spotInterruptionScenario(seed: number, pods = 120): Scenario {
  const burst = burstScenario(seed, pods);
  return {
    ...burst,
    name: 'spot-interruption',
    steps: [
      ...burst.steps,
      { at: AFTER_BURST, description: 'EC2 reclaims spot capacity', pods: [], interruptSpot: 2 },
    ],
    quietSeconds: 180,
  };
}

const WEB_BUDGET: JsonObject = {
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } },
};

export function consolidationScenario(seed: number, pods = 160): Scenario {
  const burst = burstScenario(seed, pods);
  const scaled = burst.steps
    .flatMap((s) => s.pods)
    .filter((p) => appOf(p) === 'web' || appOf(p) === 'worker');
  // Three of every four replicas go: what is left fits on far fewer nodes.
  const removed = scaled.filter((_, i) => i % 4 !== 0).map(keyOf);
  return {
    ...burst,
    name: 'consolidation',
    cluster: [{ resource: 'poddisruptionbudgets', object: WEB_BUDGET }],
    steps: [
      ...burst.steps,
      {
        at: AFTER_BURST,
        description: `web and worker scaled down by ${removed.length} replicas`,
        pods: [],
        removePods: removed,
      },
    ],
    maxSeconds: 1800,
    quietSeconds: 600,
  };
}

/** The burst, then at AFTER_BURST the EC2NodeClass changes as `pools` writes it: every node drifts. */
function classChangeScenario(
  name: string,
  seed: number,
  pods: number,
  change: { readonly description: string; readonly pools: string },
): Scenario {
  const burst = burstScenario(seed, pods);
  return {
    ...burst,
    name,
    steps: [
      ...burst.steps,
      {
        at: AFTER_BURST,
        description: change.description,
        pods: [],
        apply: [{ file: `scenario:${name}/pools.yaml`, text: change.pools }],
      },
    ],
    maxSeconds: 3600,
    // The cluster looks settled between two steps of the roll, so the run is given time for
    // the whole of it: about 45 s per pair of nodes at the default budget of 10%.
    quietSeconds: 900,
  };
}

export function driftScenario(seed: number, pods = 120): Scenario {
  return classChangeScenario('drift', seed, pods, {
    description: 'EC2NodeClass default moved to AMI al2023@v20260301',
    pools: SCENARIO_POOLS_YAML.replace('alias: al2023@latest', 'alias: al2023@v20260301'),
  });
}

/** The subnet the platform team retires in `subnet-drift`. */
export const RETIRED_SUBNET = { id: 'subnet-sim-us-east-1c', zone: 'us-east-1c' };

/**
 * The platform team retires a zone's subnet: the class's subnet selector now names the other
 * two by their `Name` tags, so every node launched into the third was launched into a subnet the class no longer
 * selects (`SubnetDrift`, aws: pkg/cloudprovider/drift.go) and rolls into the others.
 */
export function subnetDriftScenario(seed: number, pods = 120): Scenario {
  const subnets = 'subnetSelectorTerms:\n    - tags:\n        karpenter.sh/discovery: simulated';
  const kept = [
    'subnetSelectorTerms:',
    '    - tags:',
    '        Name: sim-us-east-1a',
    '    - tags:',
    '        Name: sim-us-east-1b',
  ].join('\n');
  return classChangeScenario('subnet-drift', seed, pods, {
    description: `EC2NodeClass default no longer selects subnet ${RETIRED_SUBNET.id}`,
    pools: SCENARIO_POOLS_YAML.replace(subnets, kept),
  });
}
