/**
 * Builders for disruption tests: managed nodes with the labels Karpenter puts on them (pool,
 * instance type, zone, capacity type, initialized) and their claims, PodDisruptionBudgets, and
 * a whole `planDisruption` input with a fixed "now".
 */

import type { DisruptionInput } from '../../functions/domain/disruption/disruption-input.ts';
import { planDisruption } from '../../functions/domain/disruption/disruption-plan.ts';
import type { DisruptionPlan } from '../../functions/domain/disruption/disruption-plan-types.ts';
import type { InstanceType } from '../../functions/domain/instance-type.ts';
import { Label } from '../../functions/domain/labels.ts';
import type { Node, NodeCondition } from '../../functions/domain/node.ts';
import type { NodeClaim } from '../../functions/domain/node-claim.ts';
import type { NodePool } from '../../functions/domain/node-pool.ts';
import type { Pod } from '../../functions/domain/pod.ts';
import type { PodDisruptionBudget } from '../../functions/domain/pod-disruption-budget.ts';
import { cronSchedules } from '../../functions/use-cases/disruption/cron-schedules.ts';
import { aNode, aNodePool, anInstanceType, instanceTypesFor } from './builders.ts';

export const NOW = '2026-06-01T12:00:00Z';
export const NOW_MS = Date.parse(NOW);
/** A day before NOW: old enough for every default window, young enough not to expire. */
export const YESTERDAY = '2026-05-31T12:00:00Z';

const ALL_OFFERINGS = ['test-zone-a', 'test-zone-b', 'test-zone-c'].flatMap((zone) => [
  `${zone}/spot`,
  `${zone}/on-demand`,
]);

/**
 * Twenty general-purpose sizes, 1 to 20 vCPU, priced $0.05 per vCPU on demand (spot 40%).
 * `launchable: false` keeps the types (so nodes of them have not drifted) but marks every
 * offering unavailable, so nothing new can be launched.
 */
export function aCatalog(options: { readonly launchable?: boolean } = {}): InstanceType[] {
  const unavailable = options.launchable === false ? ALL_OFFERINGS : [];
  return Array.from({ length: 20 }, (_, i) =>
    anInstanceType({
      name: `c.${i + 1}x`,
      cpu: i + 1,
      memoryGiB: 4 * (i + 1),
      price: 0.05 * (i + 1),
      unavailable,
    }),
  );
}

export interface NodeOptions {
  readonly name: string;
  readonly nodePool?: string;
  readonly instanceType?: string;
  readonly cpu?: number;
  readonly zone?: string;
  readonly capacityType?: 'spot' | 'on-demand';
  readonly created?: string;
  readonly initialized?: boolean;
  readonly annotations?: Record<string, string>;
  readonly claimAnnotations?: Record<string, string>;
  readonly imageID?: string;
  /** When the claim last saw a pod arrive or leave. */
  readonly lastPodEventTime?: string;
  readonly labels?: Record<string, string>;
  readonly deleting?: boolean;
  /** `status.conditions`; a Ready condition among them sets `ready`. */
  readonly conditions?: readonly NodeCondition[];
}

/** A node a pool launched, sized as its `c.<n>x` type, with its claim. */
export function aPoolNode(options: NodeOptions): { node: Node; nodeClaim: NodeClaim } {
  const cpu = options.cpu ?? 4;
  const nodePool = options.nodePool ?? 'default';
  const zone = options.zone ?? 'test-zone-a';
  const created = options.created ?? YESTERDAY;
  const labels = {
    [Label.nodePool]: nodePool,
    [Label.instanceType]: options.instanceType ?? `c.${cpu}x`,
    [Label.zone]: zone,
    [Label.capacityType]: options.capacityType ?? 'on-demand',
    [Label.arch]: 'amd64',
    [Label.os]: 'linux',
    ...(options.initialized === false ? {} : { [Label.initialized]: 'true' }),
    ...options.labels,
  };
  const base = aNode({ name: options.name, cpu: String(cpu), memory: `${4 * cpu}Gi`, labels });
  const providerID = `aws:///${zone}/i-${options.name}`;
  const node: Node = {
    ...base,
    providerID,
    creationTimestamp: created,
    annotations: options.annotations ?? {},
    deleting: options.deleting ?? false,
    ...(options.conditions === undefined ? {} : conditionsOf(options.conditions)),
  };
  const nodeClaim: NodeClaim = {
    metadata: {
      name: `${nodePool}-${options.name}`,
      labels,
      creationTimestamp: created,
      annotations: options.claimAnnotations ?? {},
    },
    spec: {
      requirements: [],
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
    },
    status: {
      nodeName: options.name,
      providerID,
      ...(options.imageID === undefined ? {} : { imageID: options.imageID }),
      ...(options.lastPodEventTime === undefined
        ? {}
        : { lastPodEventTime: options.lastPodEventTime }),
    },
  };
  return { node, nodeClaim };
}

function conditionsOf(conditions: readonly NodeCondition[]): Pick<Node, 'conditions' | 'ready'> {
  const ready = conditions.find((c) => c.type === 'Ready');
  return { conditions, ready: ready === undefined || ready.status === 'True' };
}

export function aBudget(options: {
  readonly name: string;
  readonly matchLabels: Record<string, string>;
  readonly disruptionsAllowed: number;
  readonly namespace?: string;
}): PodDisruptionBudget {
  return {
    namespace: options.namespace ?? 'default',
    name: options.name,
    selector: { matchLabels: options.matchLabels },
    disruptionsAllowed: options.disruptionsAllowed,
    currentHealthy: 0,
    desiredHealthy: 0,
    expectedPods: 0,
  };
}

/** A pool with a disruption block, on the test catalog's requirements. */
export function aDisruptionPool(
  disruption: NodePool['spec']['disruption'],
  options: {
    readonly name?: string;
    readonly template?: Partial<NodePool['spec']['template']['spec']>;
  } = {},
): NodePool {
  const pool = aNodePool({ name: options.name ?? 'default' });
  return {
    ...pool,
    spec: {
      ...pool.spec,
      template: {
        ...pool.spec.template,
        spec: { ...pool.spec.template.spec, ...options.template },
      },
      ...(disruption === undefined ? {} : { disruption }),
    },
  };
}

export interface DisruptionOptions extends Partial<Omit<DisruptionInput, 'nodes' | 'nodeClaims'>> {
  readonly nodes: readonly { node: Node; nodeClaim: NodeClaim }[];
  readonly pods?: readonly Pod[];
  readonly catalog?: readonly InstanceType[];
}

export function aDisruptionInput(options: DisruptionOptions): DisruptionInput {
  const nodePools = options.nodePools ?? [aDisruptionPool({ budgets: [{ nodes: '100%' }] })];
  const { nodes, catalog, ...rest } = options;
  return {
    pods: [],
    daemonSets: [],
    podDisruptionBudgets: [],
    nowMs: NOW_MS,
    cron: cronSchedules,
    explain: true,
    ...rest,
    nodes: nodes.map((n) => n.node),
    nodeClaims: nodes.map((n) => n.nodeClaim),
    nodePools,
    instanceTypes: options.instanceTypes ?? instanceTypesFor(nodePools, catalog ?? aCatalog()),
  };
}

export function disruptionFor(options: DisruptionOptions): DisruptionPlan {
  return planDisruption(aDisruptionInput(options));
}

/** Each node's fate: the decision method that takes it, or `stay:<code>`. */
export function fates(plan: DisruptionPlan): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of plan.decisions) for (const n of d.nodes) out[n] = d.method;
  for (const s of plan.staying) out[s.node] = `stay:${s.code}`;
  return out;
}
