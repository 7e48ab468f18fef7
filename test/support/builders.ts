/**
 * Test builders with partial overrides, in the spirit of Karpenter's test fixtures:
 * `aPod({ cpu: '1' })`, `aNodePool({ requirements: [...] })`, `anInstanceType({ name: 'm5.large' })`.
 */
import type { InstanceType, Offering } from '../../functions/domain/instance-type.ts';
import type { CapacityType } from '../../functions/domain/labels.ts';
import { Label } from '../../functions/domain/labels.ts';
import type { Node } from '../../functions/domain/node.ts';
import type { NodePool } from '../../functions/domain/node-pool.ts';
import type { PlacementGroup } from '../../functions/domain/placement-group.ts';
import type { Pod, PodSpec } from '../../functions/domain/pod.ts';
import type { NodeSelectorRequirement } from '../../functions/domain/requirements/requirement.ts';
import { requirement } from '../../functions/domain/requirements/requirement.ts';
import { add, requirementsOf } from '../../functions/domain/requirements/requirements.ts';
import { GiB, parseResources, type Resources } from '../../functions/domain/resources.ts';
import type { Taint } from '../../functions/domain/taints.ts';

let podCounter = 0;

export interface PodOptions extends Partial<Omit<PodSpec, 'containers'>> {
  readonly name?: string;
  readonly namespace?: string;
  readonly labels?: Record<string, string>;
  readonly cpu?: string;
  readonly memory?: string;
  readonly requests?: Record<string, string>;
  readonly nodeName?: string;
  readonly ownerKind?: string;
  readonly creationTimestamp?: string;
  readonly hostPort?: number;
}

export function aPod(options: PodOptions = {}): Pod {
  podCounter++;
  const name = options.name ?? `pod-${String(podCounter).padStart(5, '0')}`;
  const namespace = options.namespace ?? 'default';
  const requests = parseResources({
    ...(options.cpu === undefined ? {} : { cpu: options.cpu }),
    ...(options.memory === undefined ? {} : { memory: options.memory }),
    ...options.requests,
  });
  const {
    name: _n,
    namespace: _ns,
    labels,
    cpu: _c,
    memory: _m,
    requests: _r,
    nodeName,
    ownerKind,
    creationTimestamp,
    hostPort,
    ...spec
  } = options;
  const pod: Pod = {
    uid: `${namespace}/${name}`,
    namespace,
    name,
    labels: labels ?? {},
    annotations: {},
    deleting: false,
    ...(nodeName === undefined ? {} : { nodeName, phase: 'Running' }),
    ...(ownerKind === undefined ? {} : { ownerKind }),
    creationTimestamp: creationTimestamp ?? '2026-01-01T00:00:00Z',
    spec: {
      containers: [
        {
          name: 'app',
          requests,
          ...(hostPort === undefined ? {} : { ports: [{ containerPort: hostPort, hostPort }] }),
        },
      ],
      initContainers: [],
      tolerations: [],
      topologySpreadConstraints: [],
      volumes: [],
      ...spec,
    },
  };
  return pod;
}

export interface NodePoolOptions {
  readonly name?: string;
  readonly weight?: number;
  readonly requirements?: readonly NodeSelectorRequirement[];
  readonly labels?: Record<string, string>;
  readonly taints?: readonly Taint[];
  readonly startupTaints?: readonly Taint[];
  readonly limits?: Record<string, string>;
}

export function aNodePool(options: NodePoolOptions = {}): NodePool {
  return {
    metadata: { name: options.name ?? 'default' },
    spec: {
      ...(options.weight === undefined ? {} : { weight: options.weight }),
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      template: {
        metadata: { labels: options.labels ?? {} },
        spec: {
          requirements: options.requirements ?? [
            { key: Label.capacityType, operator: 'In', values: ['spot', 'on-demand'] },
          ],
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          ...(options.taints === undefined ? {} : { taints: options.taints }),
          ...(options.startupTaints === undefined ? {} : { startupTaints: options.startupTaints }),
        },
      },
    },
  };
}

export interface InstanceTypeOptions {
  readonly name: string;
  readonly cpu: number;
  readonly memoryGiB: number;
  readonly pods?: number;
  readonly arch?: 'amd64' | 'arm64';
  readonly price: number;
  readonly zones?: readonly string[];
  readonly capacityTypes?: readonly CapacityType[];
  readonly unavailable?: readonly string[];
  readonly extra?: Resources;
  readonly labels?: Record<string, string>;
}

/** A synthetic instance type whose allocatable equals its capacity (overhead tested elsewhere). */
export function anInstanceType(options: InstanceTypeOptions): InstanceType {
  const zones = options.zones ?? ['test-zone-a', 'test-zone-b', 'test-zone-c'];
  const capacityTypes = options.capacityTypes ?? ['spot', 'on-demand'];
  const offerings: Offering[] = zones.flatMap((zone) =>
    capacityTypes.map((capacityType) => ({
      zone,
      capacityType,
      pricePerHour: capacityType === 'spot' ? options.price * 0.4 : options.price,
      available: !(options.unavailable ?? []).includes(`${zone}/${capacityType}`),
    })),
  );
  const [family = options.name] = options.name.split('.');
  const capacity: Resources = {
    cpu: options.cpu * 1000,
    memory: options.memoryGiB * GiB,
    pods: options.pods ?? 110,
    ...options.extra,
  };
  return {
    name: options.name,
    requirements: requirementsOf([
      requirement(Label.instanceType, 'In', [options.name]),
      requirement(Label.arch, 'In', [options.arch ?? 'amd64']),
      requirement(Label.os, 'In', ['linux']),
      requirement(Label.instanceFamily, 'In', [family]),
      requirement(Label.instanceCpu, 'In', [String(options.cpu)]),
      requirement(Label.zone, 'In', zones),
      requirement(Label.capacityType, 'In', capacityTypes),
      ...Object.entries(options.labels ?? {}).map(([k, v]) => requirement(k, 'In', [v])),
    ]),
    offerings,
    capacity,
    overhead: {},
    allocatable: capacity,
  };
}

/** `it` with one reservation per `[id, capacity]` in test-zone-a, priced near zero. */
export function withReservations(
  it: InstanceType,
  ...reservations: [string, number][]
): InstanceType {
  const offerings = reservations.map(([id, capacity]) => ({
    zone: 'test-zone-a',
    capacityType: 'reserved' as const,
    pricePerHour: (it.offerings[0]?.pricePerHour ?? 0) / 10_000_000,
    available: capacity > 0,
    reservationId: id,
    reservationType: 'default' as const,
    reservationInterruptible: false,
    reservationCapacity: capacity,
  }));
  const requirements = add(
    it.requirements,
    requirementsOf([
      requirement(Label.capacityType, 'In', ['reserved', 'spot', 'on-demand']),
      requirement(
        Label.capacityReservationId,
        'In',
        reservations.map(([id]) => id),
      ),
    ]),
  );
  return {
    ...it,
    requirements,
    offerings: [...it.offerings, ...offerings],
  };
}

/** `it` launched into `group`, as the types of a class with a placement group are. */
export function inPlacementGroup(it: InstanceType, group: PlacementGroup): InstanceType {
  const requirements = add(
    it.requirements,
    requirementsOf([requirement(Label.placementGroupId, 'In', [group.id])]),
  );
  return { ...it, requirements, placementGroup: group };
}

/** A 4 vCPU, 16 GiB instance type with one NVIDIA GPU; `options` may add labels or zones. */
export function aGpuInstanceType(
  name: string,
  price: number,
  options: Partial<InstanceTypeOptions> = {},
): InstanceType {
  return anInstanceType({
    name,
    cpu: 4,
    memoryGiB: 16,
    price,
    extra: { 'nvidia.com/gpu': 1 },
    ...options,
  });
}

/** A small catalog: three sizes of a general-purpose family and one arm64 type. */
export function someInstanceTypes(): InstanceType[] {
  return [
    anInstanceType({ name: 'm.large', cpu: 2, memoryGiB: 8, price: 0.1 }),
    anInstanceType({ name: 'm.xlarge', cpu: 4, memoryGiB: 16, price: 0.2 }),
    anInstanceType({ name: 'm.4xlarge', cpu: 16, memoryGiB: 64, price: 0.8 }),
    anInstanceType({ name: 'g.xlarge', cpu: 4, memoryGiB: 16, price: 0.16, arch: 'arm64' }),
  ];
}

export function aNode(options: {
  name: string;
  labels?: Record<string, string>;
  cpu?: string;
  memory?: string;
  pods?: string;
  taints?: readonly Taint[];
}): Node {
  const allocatable = parseResources({
    cpu: options.cpu ?? '4',
    memory: options.memory ?? '16Gi',
    pods: options.pods ?? '110',
  });
  return {
    name: options.name,
    labels: { [Label.hostname]: options.name, ...options.labels },
    annotations: {},
    taints: options.taints ?? [],
    unschedulable: false,
    capacity: allocatable,
    allocatable,
    ready: true,
    deleting: false,
  };
}

export function instanceTypesFor(
  pools: readonly NodePool[],
  types: readonly InstanceType[],
): Map<string, readonly InstanceType[]> {
  return new Map(pools.map((p) => [p.metadata.name, types]));
}
