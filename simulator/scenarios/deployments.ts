/**
 * Pods as a Deployment's ReplicaSet creates them: owner reference, pod-template-hash, the
 * template's labels, requests and constraints, and a name suffix from the seeded generator.
 */
import type { JsonObject } from '../api-server/json.ts';
import type { Random } from './random.ts';

export interface DeploymentSpec {
  readonly name: string;
  readonly namespace: string;
  readonly cpu: string;
  readonly memory: string;
  /** Spread replicas over zones (DoNotSchedule), as highly available services do. */
  readonly zoneSpread?: boolean;
  readonly nodeSelector?: Readonly<Record<string, string>>;
}

const SUFFIX = 'bcdfghjklmnpqrstvwxz2456789';

function suffix(random: Random, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += SUFFIX[Math.floor(random() * SUFFIX.length)];
  return out;
}

/** `count` new replicas of the deployment. */
export function replicaPods(spec: DeploymentSpec, count: number, random: Random): JsonObject[] {
  const hash = `${spec.name.length}8f${spec.namespace.length}c9d4`;
  const labels = { app: spec.name, 'pod-template-hash': hash };
  return Array.from({ length: count }, () => ({
    metadata: {
      name: `${spec.name}-${hash}-${suffix(random, 5)}`,
      namespace: spec.namespace,
      labels,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `${spec.name}-${hash}`,
          uid: `00000000-0000-4000-9000-${hash.padStart(12, '0')}`,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      containers: [
        {
          name: spec.name,
          image: `registry.example/${spec.name}:1.0`,
          resources: { requests: { cpu: spec.cpu, memory: spec.memory } },
        },
      ],
      ...(spec.nodeSelector ? { nodeSelector: spec.nodeSelector } : {}),
      ...(spec.zoneSpread
        ? {
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: 'topology.kubernetes.io/zone',
                whenUnsatisfiable: 'DoNotSchedule',
                labelSelector: { matchLabels: { app: spec.name } },
              },
            ],
          }
        : {}),
    },
    status: { phase: 'Pending' },
  }));
}
