/**
 * Scenarios that take nodes away, each starting from the `burst` cluster once it has settled:
 * `spot-interruption` (EC2 warns it reclaims two spot nodes), `consolidation` (web and workers
 * scale down, leaving nodes underused; web has a PodDisruptionBudget) and `drift` (the
 * EC2NodeClass moves to a newer AMI, so every node has drifted and rolls within the budget).
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

export function driftScenario(seed: number, pods = 120): Scenario {
  const burst = burstScenario(seed, pods);
  const newerImage = SCENARIO_POOLS_YAML.replace('alias: al2023@latest', 'alias: al2023@v20260301');
  return {
    ...burst,
    name: 'drift',
    steps: [
      ...burst.steps,
      {
        at: AFTER_BURST,
        description: 'EC2NodeClass default moved to AMI al2023@v20260301',
        pods: [],
        apply: [{ file: 'scenario:drift/pools.yaml', text: newerImage }],
      },
    ],
    maxSeconds: 3600,
    // The cluster looks settled between two steps of the roll, so the run is given time for
    // the whole of it: about 45 s per pair of nodes at the default budget of 10%.
    quietSeconds: 900,
  };
}
