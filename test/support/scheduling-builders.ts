/**
 * Builders for scheduling tests, composed from `builders.ts`: a whole `planProvisioning` input
 * from a few parts, topology and affinity terms, DaemonSets, NodeClaims for managed and
 * in-flight nodes, and readers that turn a plan into "where did each pod go".
 */
import type { DaemonSet } from '../../functions/domain/daemon-set.ts';
import type { InstanceType } from '../../functions/domain/instance-type.ts';
import type { LabelSelector } from '../../functions/domain/label-selector.ts';
import { Label } from '../../functions/domain/labels.ts';
import type { Node } from '../../functions/domain/node.ts';
import type { NodeClaim } from '../../functions/domain/node-claim.ts';
import type {
  Container,
  NodeSelectorTerm,
  Pod,
  PodAffinityTerm,
  PodSpec,
  TopologySpreadConstraint,
} from '../../functions/domain/pod.ts';
import type { NodeSelectorRequirement } from '../../functions/domain/requirements/requirement.ts';
import { parseResources } from '../../functions/domain/resources.ts';
import {
  type ProvisioningInput,
  planProvisioning,
} from '../../functions/domain/scheduling/plan-provisioning.ts';
import type { ProvisioningPlan } from '../../functions/domain/scheduling/provisioning-plan.ts';
import type { Taint } from '../../functions/domain/taints.ts';
import { aNode, aNodePool, aPod, instanceTypesFor, someInstanceTypes } from './builders.ts';

/** The zones `anInstanceType` offers by default. */
export const ZONES = ['test-zone-a', 'test-zone-b', 'test-zone-c'] as const;

export interface PlanOptions extends Partial<Omit<ProvisioningInput, 'instanceTypes'>> {
  readonly pods: readonly Pod[];
  /** Every pool gets the same catalog unless `instanceTypes` says otherwise per pool. */
  readonly catalog?: readonly InstanceType[];
  readonly instanceTypes?: ReadonlyMap<string, readonly InstanceType[]>;
}

/** The whole input with defaults: one `default` pool (spot and on-demand), the small catalog. */
export function aProvisioningInput(options: PlanOptions): ProvisioningInput {
  const nodePools = options.nodePools ?? [aNodePool()];
  const catalog = options.catalog ?? someInstanceTypes();
  return {
    nodes: [],
    nodeClaims: [],
    daemonSets: [],
    ...options,
    nodePools,
    instanceTypes: options.instanceTypes ?? instanceTypesFor(nodePools, catalog),
  };
}

export function planFor(options: PlanOptions): ProvisioningPlan {
  return planProvisioning(aProvisioningInput(options));
}

export type Placement =
  | {
      readonly kind: 'claim';
      readonly claim: string;
      readonly nodePool: string;
      readonly instanceType: string;
      readonly zone: string;
      readonly capacityType: string;
    }
  | { readonly kind: 'node'; readonly node: string }
  | { readonly kind: 'unschedulable'; readonly reason: string };

/** Where each pod went, by `namespace/name`. */
export function placements(plan: ProvisioningPlan): Map<string, Placement> {
  const out = new Map<string, Placement>();
  for (const claim of plan.nodeClaims) {
    for (const pod of claim.pods) {
      out.set(pod, {
        kind: 'claim',
        claim: claim.name,
        nodePool: claim.nodePool,
        instanceType: claim.instanceType.name,
        zone: claim.offering.zone,
        capacityType: claim.offering.capacityType,
      });
    }
  }
  for (const node of plan.existingNodes) {
    for (const pod of node.pods) out.set(pod, { kind: 'node', node: node.name });
  }
  for (const { pod, reason } of plan.unschedulable) {
    out.set(pod, { kind: 'unschedulable', reason });
  }
  return out;
}

/** Where one pod went; the pod may be given as `namespace/name`. */
export function placementOf(plan: ProvisioningPlan, pod: Pod | string): Placement | undefined {
  return placements(plan).get(typeof pod === 'string' ? pod : `${pod.namespace}/${pod.name}`);
}

/** How many pods the new claims hold in each zone. */
export function podsPerZone(plan: ProvisioningPlan): Record<string, number> {
  const out: Record<string, number> = {};
  for (const claim of plan.nodeClaims) {
    out[claim.offering.zone] = (out[claim.offering.zone] ?? 0) + claim.pods.length;
  }
  return out;
}

/** A comparable summary of a plan: names, types, zones, capacity types and pods. */
export function planProjection(plan: ProvisioningPlan): unknown {
  return {
    nodeClaims: plan.nodeClaims.map((c) => ({
      name: c.name,
      nodePool: c.nodePool,
      instanceType: c.instanceType.name,
      zone: c.offering.zone,
      capacityType: c.offering.capacityType,
      options: c.instanceTypeOptions.map((it) => it.name),
      labels: c.labels,
      pods: c.pods,
    })),
    existingNodes: plan.existingNodes,
    unschedulable: plan.unschedulable.map((u) => ({ pod: u.pod, reason: u.reason })),
    pendingPods: plan.pendingPods,
  };
}

// Constraints ----------------------------------------------------------------------------------

export function aSpread(
  options: Partial<TopologySpreadConstraint> & { readonly matchLabels: Record<string, string> },
): TopologySpreadConstraint {
  const { matchLabels, ...rest } = options;
  return {
    maxSkew: 1,
    topologyKey: Label.zone,
    whenUnsatisfiable: 'DoNotSchedule',
    labelSelector: { matchLabels },
    ...rest,
  };
}

export function anAffinityTerm(
  topologyKey: string,
  matchLabels: Record<string, string>,
  extra: Partial<PodAffinityTerm> = {},
): PodAffinityTerm {
  const labelSelector: LabelSelector = { matchLabels };
  return { topologyKey, labelSelector, ...extra };
}

/** `affinity` for a pod: required pod affinity to the terms. */
export function podAffinity(...terms: PodAffinityTerm[]): PodSpec['affinity'] {
  return { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: terms } };
}

/** `affinity` for a pod: required pod anti-affinity to the terms. */
export function podAntiAffinity(...terms: PodAffinityTerm[]): PodSpec['affinity'] {
  return { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: terms } };
}

/** `affinity` for a pod: required node affinity, one term per list (OR-ed). */
export function requiredNodeAffinity(
  ...terms: (readonly NodeSelectorRequirement[])[]
): PodSpec['affinity'] {
  const nodeSelectorTerms: NodeSelectorTerm[] = terms.map((t) => ({ matchExpressions: t }));
  return {
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } },
  };
}

/** `affinity` for a pod: preferred node affinity terms with their weights. */
export function preferredNodeAffinity(
  ...terms: { weight: number; expressions: readonly NodeSelectorRequirement[] }[]
): PodSpec['affinity'] {
  return {
    nodeAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: terms.map((t) => ({
        weight: t.weight,
        preference: { matchExpressions: t.expressions },
      })),
    },
  };
}

export function zoneIn(...zones: string[]): NodeSelectorRequirement {
  return { key: Label.zone, operator: 'In', values: zones };
}

// Cluster objects ------------------------------------------------------------------------------

export function aContainer(name: string, requests: Record<string, string>): Container {
  return { name, requests: parseResources(requests) };
}

export function aDaemonSet(options: {
  readonly name?: string;
  readonly cpu?: string;
  readonly memory?: string;
  readonly hostPort?: number;
  readonly spec?: Partial<PodSpec>;
  readonly labels?: Record<string, string>;
}): DaemonSet {
  const name = options.name ?? 'daemon';
  const requests = parseResources({
    ...(options.cpu === undefined ? {} : { cpu: options.cpu }),
    ...(options.memory === undefined ? {} : { memory: options.memory }),
  });
  return {
    namespace: 'kube-system',
    name,
    template: {
      labels: options.labels ?? { app: name },
      spec: {
        containers: [
          {
            name,
            requests,
            ...(options.hostPort === undefined
              ? {}
              : { ports: [{ containerPort: options.hostPort, hostPort: options.hostPort }] }),
          },
        ],
        initContainers: [],
        tolerations: [],
        topologySpreadConstraints: [],
        volumes: [],
        ...options.spec,
      },
    },
  };
}

/** The labels of a node a NodePool launched on demand in `zone`. */
function launchedLabels(nodePool: string, zone: string): Record<string, string> {
  return {
    [Label.nodePool]: nodePool,
    [Label.zone]: zone,
    [Label.capacityType]: 'on-demand',
    [Label.arch]: 'amd64',
    [Label.os]: 'linux',
  };
}

/** A node a NodePool launched, in one zone, with the NodeClaim that owns it. */
export function aManagedNode(options: {
  readonly name: string;
  readonly nodePool?: string;
  readonly zone?: string;
  readonly cpu?: string;
  readonly memory?: string;
  readonly taints?: readonly Taint[];
  readonly startupTaints?: readonly Taint[];
  readonly initialized?: boolean;
  readonly labels?: Record<string, string>;
}): { node: Node; nodeClaim: NodeClaim } {
  const nodePool = options.nodePool ?? 'default';
  const base = aNode({
    name: options.name,
    cpu: options.cpu ?? '4',
    memory: options.memory ?? '16Gi',
    labels: {
      ...launchedLabels(nodePool, options.zone ?? ZONES[0]),
      ...(options.initialized === false ? {} : { [Label.initialized]: 'true' }),
      ...options.labels,
    },
    ...(options.taints === undefined ? {} : { taints: options.taints }),
  });
  const providerID = `aws:///${options.zone ?? ZONES[0]}/i-${options.name}`;
  const node: Node = { ...base, providerID };
  const nodeClaim: NodeClaim = {
    metadata: { name: `${nodePool}-${options.name}`, labels: { [Label.nodePool]: nodePool } },
    spec: {
      requirements: [],
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
      ...(options.taints === undefined ? {} : { taints: options.taints }),
      ...(options.startupTaints === undefined ? {} : { startupTaints: options.startupTaints }),
    },
    status: { nodeName: options.name, providerID },
  };
  return { node, nodeClaim };
}

/** `count` alike pods of one app, `<app>-0…`, labelled `app: <app>`, each with `spec`. */
export function appPods(
  app: string,
  count: number,
  spec: Omit<Parameters<typeof aPod>[0], 'name' | 'labels'> = {},
): Pod[] {
  return Array.from({ length: count }, (_, i) =>
    aPod({ name: `${app}-${i}`, labels: { app }, ...spec }),
  );
}

/** A NodeClaim that was launched but whose node has not joined yet. */
export function anInFlightNodeClaim(options: {
  readonly name: string;
  readonly nodePool?: string;
  readonly zone?: string;
  readonly cpu?: string;
  readonly memory?: string;
}): NodeClaim {
  const nodePool = options.nodePool ?? 'default';
  const resources = {
    cpu: options.cpu ?? '4',
    memory: options.memory ?? '16Gi',
    pods: '110',
  };
  return {
    metadata: {
      name: options.name,
      labels: launchedLabels(nodePool, options.zone ?? ZONES[0]),
    },
    spec: {
      requirements: [],
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
    },
    status: { capacity: resources, allocatable: resources },
  };
}

/** A pod with the given containers, init containers and overhead (requests as quantities). */
export function aPodWithContainers(options: {
  readonly name?: string;
  readonly containers: readonly Container[];
  readonly initContainers?: readonly Container[];
  readonly overhead?: Record<string, string>;
  readonly runtimeClassName?: string;
}): Pod {
  const pod = aPod(options.name === undefined ? {} : { name: options.name });
  return {
    ...pod,
    spec: {
      ...pod.spec,
      containers: options.containers,
      initContainers: options.initContainers ?? [],
      ...(options.overhead === undefined ? {} : { overhead: parseResources(options.overhead) }),
      ...(options.runtimeClassName === undefined
        ? {}
        : { runtimeClassName: options.runtimeClassName }),
    },
  };
}

/** A native sidecar: an init container that keeps running. */
export function aSidecar(name: string, requests: Record<string, string>): Container {
  return { ...aContainer(name, requests), restartPolicy: 'Always' };
}
