/**
 * `burst`: four Deployments of a web shop scale up within a minute — web and api spread over
 * zones, workers and a memory-heavy cache — on a cluster with no nodes.
 */
import { type DeploymentSpec, replicaPods } from './deployments.ts';
import { SCENARIO_POOLS_YAML } from './pools.yaml.ts';
import { seededRandom } from './random.ts';
import type { Scenario } from './scenario.ts';

const DEPLOYMENTS: readonly (DeploymentSpec & { readonly share: number; readonly at: number })[] = [
  {
    name: 'web',
    namespace: 'shop',
    cpu: '500m',
    memory: '1Gi',
    zoneSpread: true,
    share: 0.4,
    at: 0,
  },
  { name: 'api', namespace: 'shop', cpu: '1', memory: '2Gi', zoneSpread: true, share: 0.2, at: 15 },
  { name: 'worker', namespace: 'batch', cpu: '2', memory: '4Gi', share: 0.3, at: 30 },
  { name: 'cache', namespace: 'shop', cpu: '250m', memory: '6Gi', share: 0.1, at: 45 },
];

export function burstScenario(seed: number, pods = 300): Scenario {
  const random = seededRandom(seed);
  let left = pods;
  const steps = DEPLOYMENTS.map((deployment, i) => {
    const count = i === DEPLOYMENTS.length - 1 ? left : Math.round(pods * deployment.share);
    left -= count;
    return {
      at: deployment.at,
      description: `${deployment.namespace}/${deployment.name} scaled up by ${count} replicas`,
      pods: replicaPods(deployment, count, random),
    };
  });
  return {
    name: 'burst',
    region: 'us-east-1',
    zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'],
    manifests: [{ file: 'scenario:burst/pools.yaml', text: SCENARIO_POOLS_YAML }],
    steps,
    maxSeconds: 900,
  };
}

/**
 * `capacity-errors`: the same burst while the cheapest offerings have no capacity and spot has
 * run dry in one zone, so claims pinned there by zonal spread fail and are re-planned.
 */
export function capacityErrorsScenario(seed: number, pods = 300): Scenario {
  return {
    ...burstScenario(seed, pods),
    name: 'capacity-errors',
    exhaustCheapest: 12,
    spotExhaustedZones: ['us-east-1a'],
  };
}
