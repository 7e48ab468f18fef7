/**
 * Pods as a web shop's Deployments scale up at once: made by their ReplicaSets, and left Pending
 * by kube-scheduler, which marked them Unschedulable, as the API server then lists them.
 */
import type { JsonObject } from '../../simulator/api-server/json.ts';

interface Workload {
  readonly app: string;
  readonly namespace: string;
  readonly cpu: string;
  readonly memory: string;
  /** The part of the pods this workload makes. */
  readonly share: number;
  /** Spread over zones (DoNotSchedule), as highly available services are. */
  readonly zoneSpread: boolean;
}

/** web and api spread over zones, workers, and a memory-heavy cache. */
const WEB_SHOP: readonly Workload[] = [
  { app: 'web', namespace: 'shop', cpu: '500m', memory: '1Gi', share: 0.4, zoneSpread: true },
  { app: 'api', namespace: 'shop', cpu: '1', memory: '2Gi', share: 0.2, zoneSpread: true },
  { app: 'worker', namespace: 'batch', cpu: '2', memory: '4Gi', share: 0.3, zoneSpread: false },
  { app: 'cache', namespace: 'shop', cpu: '250m', memory: '6Gi', share: 0.1, zoneSpread: false },
];

/** The namespaces the web shop's pods live in. */
export const WEB_SHOP_NAMESPACES = ['shop', 'batch'] as const;

function unschedulablePod(workload: Workload, index: number): JsonObject {
  const { app, namespace, cpu, memory } = workload;
  const spread = {
    maxSkew: 1,
    topologyKey: 'topology.kubernetes.io/zone',
    whenUnsatisfiable: 'DoNotSchedule',
    labelSelector: { matchLabels: { app } },
  };
  return {
    metadata: {
      name: `${app}-7d4b9c-${index}`,
      namespace,
      labels: { app },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `${app}-7d4b9c`,
          uid: `replicaset-${app}`,
          controller: true,
        },
      ],
    },
    spec: {
      containers: [
        {
          name: app,
          image: `registry.example/${app}:1.0`,
          resources: { requests: { cpu, memory } },
        },
      ],
      ...(workload.zoneSpread ? { topologySpreadConstraints: [spread] } : {}),
    },
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
    },
  };
}

/** `count` pods shared among the web shop's workloads, the last taking what rounding leaves. */
export function webShopPods(count: number): JsonObject[] {
  let left = count;
  return WEB_SHOP.flatMap((workload, i) => {
    const made = i === WEB_SHOP.length - 1 ? left : Math.round(count * workload.share);
    left -= made;
    return Array.from({ length: made }, (_, index) => unschedulablePod(workload, index));
  });
}
