/** Builders and helpers shared by the StateStore contract suites. */
import type { EC2NodeClass } from '../../functions/domain/node-class.ts';
import type { NodePool } from '../../functions/domain/node-pool.ts';
import type { NewNodeClaimRecord } from '../../functions/domain/state/node-claim-record.ts';
import type { StateStore } from '../../functions/ports/state-store.ts';

export type StoreFactory = () => Promise<StateStore>;

/** A fixed start for every test's timeline: the store reads no clock. */
export const T0 = new Date('2030-01-01T00:00:00.000Z');

export function secondsAfter(start: Date, seconds: number): Date {
  return new Date(start.getTime() + seconds * 1000);
}

/** A NodePool document as `kubectl get -o yaml` holds it: more fields than decisions read. */
export interface NodePoolManifest extends NodePool {
  readonly apiVersion: string;
  readonly kind: string;
  readonly status?: { readonly resources?: Readonly<Record<string, string>> };
}

export function aNodePool(name = 'default', weight = 10): NodePoolManifest {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name },
    spec: {
      weight,
      template: {
        metadata: { labels: { team: 'web' } },
        spec: {
          requirements: [
            { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'on-demand'] },
            { key: 'karpenter.k8s.aws/instance-generation', operator: 'Gt', values: ['5'] },
          ],
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          expireAfter: '720h',
        },
      },
      disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '1m' },
      limits: { cpu: '1000' },
    },
    status: { resources: { cpu: '0', nodes: '0' } },
  };
}

export function anEC2NodeClass(name = 'default', role = 'KarpenterNodeRole'): EC2NodeClass {
  return {
    metadata: { name },
    spec: {
      amiSelectorTerms: [{ alias: 'al2023@latest' }],
      subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'demo' } }],
      securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'demo' } }],
      role,
      kubelet: { maxPods: 110 },
    },
  };
}

export function aNewNodeClaim(overrides: Partial<NewNodeClaimRecord> = {}): NewNodeClaimRecord {
  return {
    name: 'default-abc12',
    nodePool: 'default',
    nodeClass: 'default',
    requirements: [
      {
        key: 'node.kubernetes.io/instance-type',
        operator: 'In',
        values: ['m7g.large', 'c7g.xlarge'],
      },
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] },
    ],
    instanceTypeOptions: ['m7g.large', 'c7g.xlarge'],
    offering: {
      instanceType: 'm7g.large',
      zone: 'us-east-1a',
      capacityType: 'spot',
      pricePerHour: 0.0816,
    },
    phase: 'Pending',
    timestamps: { Pending: T0.toISOString() },
    ...overrides,
  };
}

export interface RaceOutcome<T> {
  readonly fulfilled: readonly T[];
  readonly rejected: readonly unknown[];
}

/** Starts `count` attempts at once and waits for all of them, whatever each one does. */
export async function race<T>(
  count: number,
  attempt: (index: number) => Promise<T>,
): Promise<RaceOutcome<T>> {
  const settled = await Promise.allSettled(Array.from({ length: count }, (_, i) => attempt(i)));
  return {
    fulfilled: settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : [])),
    rejected: settled.flatMap((result) => (result.status === 'rejected' ? [result.reason] : [])),
  };
}

/** The reason `promise` rejects with; fails when it resolves. Awaited at once, so never unhandled. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection, but the promise resolved');
}
