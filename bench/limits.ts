/**
 * What limits cost the planner: 5,000 pods of Karpenter's "diverse" mix on an any-type pool,
 * planned with no limits, with pool and cluster limits that never bind (every option is charged
 * and checked, nothing is refused), and with an hourly-cost limit that stops the plan half way.
 */

import type { InstanceType } from '../functions/domain/instance-type.ts';
import type { ClusterLimits } from '../functions/domain/limits/cluster-limits.ts';
import { clusterLimits } from '../functions/domain/limits/cluster-limits.ts';
import { HOURLY_COST } from '../functions/domain/limits/hourly-cost.ts';
import type { NodePool } from '../functions/domain/node-pool.ts';
import type { Pod } from '../functions/domain/pod.ts';
import { planProvisioning } from '../functions/domain/scheduling/plan-provisioning.ts';
import { median } from './median.ts';
import { diversePods } from './pod-mixes.ts';

const POOL: NodePool = {
  metadata: { name: 'default' },
  spec: {
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [
          { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
        ],
      },
    },
  },
};

interface LimitCase {
  readonly name: string;
  readonly pool: NodePool;
  readonly cluster?: ClusterLimits;
}

function limited(limits: Record<string, string>): NodePool {
  return { ...POOL, spec: { ...POOL.spec, limits } };
}

const CASES: readonly LimitCase[] = [
  { name: 'no limits', pool: POOL },
  {
    name: 'pool and cluster limits, never reached',
    pool: limited({ cpu: '100000', memory: '100000Gi', nodes: '100000', [HOURLY_COST]: '100000' }),
    cluster: clusterLimits({ nodes: '100000', [HOURLY_COST]: '100000' }),
  },
  { name: 'hourly cost $50, reached', pool: limited({ [HOURLY_COST]: '50' }) },
];

function timed(run: () => void): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

function planOnce(c: LimitCase, pods: readonly Pod[], types: readonly InstanceType[]) {
  return planProvisioning({
    pods,
    nodes: [],
    nodeClaims: [],
    nodePools: [c.pool],
    instanceTypes: new Map([['default', types]]),
    daemonSets: [],
    ...(c.cluster === undefined ? {} : { clusterLimits: c.cluster }),
  });
}

export function benchLimits(types: readonly InstanceType[]): void {
  const pods = diversePods(5000);
  console.log('\nplanning 5,000 diverse pods under limits (median of 5)');
  console.log('| limits | plan (median) | nodes | $/hour | unschedulable |');
  console.log('|---|---:|---:|---:|---:|');
  for (const c of CASES) {
    let plan = planOnce(c, pods, types);
    const times = Array.from({ length: 5 }, () =>
      timed(() => {
        plan = planOnce(c, pods, types);
      }),
    );
    const cost = plan.nodeClaims.reduce((sum, claim) => sum + claim.offering.pricePerHour, 0);
    console.log(
      `| ${c.name} | ${(median(times) / 1000).toFixed(3)} s | ${plan.nodeClaims.length} | ${cost.toFixed(2)} | ${plan.unschedulable.length} |`,
    );
  }
}
