/**
 * Invariants of `planProvisioning` over random small clusters: capacity is never exceeded,
 * placed pods fit their node's labels and taints, every pending pod is accounted for once, and
 * the plan does not depend on the order pods are listed in.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InstanceType } from '../../../../functions/domain/instance-type.ts';
import { Label } from '../../../../functions/domain/labels.ts';
import { clusterLimits } from '../../../../functions/domain/limits/cluster-limits.ts';
import { HOURLY_COST } from '../../../../functions/domain/limits/hourly-cost.ts';
import { chargeOf } from '../../../../functions/domain/limits/limit-charge.ts';
import { type LimitScope, usageOf } from '../../../../functions/domain/limits/limit-scope.ts';
import { parseLimits } from '../../../../functions/domain/limits/parsed-limits.ts';
import { planningCharges } from '../../../../functions/domain/limits/planning-charges.ts';
import type { Node } from '../../../../functions/domain/node.ts';
import type { NodePool } from '../../../../functions/domain/node-pool.ts';
import { type Affinity, isTerminal, type Pod, podKey } from '../../../../functions/domain/pod.ts';
import type { NodeSelectorRequirement } from '../../../../functions/domain/requirements/requirement.ts';
import {
  add as addRequirements,
  fromLabels,
  fromNodeSelector,
  labelsSatisfy,
  type Requirements,
} from '../../../../functions/domain/requirements/requirements.ts';
import { add, fits, type Resources } from '../../../../functions/domain/resources.ts';
import { hostPortsOf } from '../../../../functions/domain/scheduling/host-ports.ts';
import type { ProvisioningInput } from '../../../../functions/domain/scheduling/plan-provisioning.ts';
import { planProvisioning } from '../../../../functions/domain/scheduling/plan-provisioning.ts';
import { podRequests } from '../../../../functions/domain/scheduling/pod-requests.ts';
import type { ProvisioningPlan } from '../../../../functions/domain/scheduling/provisioning-plan.ts';
import type { Taint, Toleration } from '../../../../functions/domain/taints.ts';
import { firstUntolerated } from '../../../../functions/domain/taints.ts';
import { aNode, aNodePool, anInstanceType, aPod } from '../../../support/builders.ts';
import {
  anAffinityTerm,
  aSpread,
  planProjection,
  podAntiAffinity,
  ZONES,
} from '../../../support/scheduling-builders.ts';

const RUNS = { numRuns: 100 };

const CATALOG: readonly InstanceType[] = [
  anInstanceType({ name: 'm.large', cpu: 2, memoryGiB: 8, price: 0.1 }),
  anInstanceType({ name: 'm.xlarge', cpu: 4, memoryGiB: 16, price: 0.2 }),
  anInstanceType({ name: 'm.2xlarge', cpu: 8, memoryGiB: 32, price: 0.4, pods: 8 }),
  anInstanceType({
    name: 'c.xlarge',
    cpu: 4,
    memoryGiB: 8,
    price: 0.17,
    zones: ['test-zone-a', 'test-zone-b'],
  }),
  anInstanceType({
    name: 'r.large',
    cpu: 2,
    memoryGiB: 16,
    price: 0.13,
    unavailable: ['test-zone-a/spot'],
  }),
  anInstanceType({ name: 'g.xlarge', cpu: 4, memoryGiB: 16, price: 0.16, arch: 'arm64' }),
  anInstanceType({
    name: 't.small',
    cpu: 1,
    memoryGiB: 2,
    pods: 4,
    price: 0.02,
    capacityTypes: ['on-demand'],
  }),
];

const TAINTS: readonly Taint[] = [
  { key: 'dedicated', value: 'batch', effect: 'NoSchedule' },
  { key: 'soft', effect: 'PreferNoSchedule' },
];

const TOLERATIONS: readonly Toleration[] = [
  { key: 'dedicated', operator: 'Exists' },
  { key: 'dedicated', operator: 'Equal', value: 'other' },
  { operator: 'Exists' },
];

// Random parts ---------------------------------------------------------------------------------

const aPoolSpec = fc.record({
  weight: fc.constantFrom(undefined, 10, 50),
  zones: fc.subarray([...ZONES], { minLength: 1 }),
  capacityTypes: fc.constantFrom(undefined, ['spot'], ['on-demand'], ['spot', 'on-demand']),
  arch: fc.constantFrom(undefined, undefined, 'amd64', 'arm64'),
  team: fc.constantFrom(undefined, 'a', 'exists'),
  taint: fc.constantFrom(undefined, undefined, ...TAINTS),
  limits: fc.constantFrom<Record<string, string> | undefined>(
    undefined,
    undefined,
    undefined,
    { nodes: '3' },
    { cpu: '24', nodes: '6' },
    { [HOURLY_COST]: '0.5' },
    { cpu: '12', [HOURLY_COST]: '0.3' },
  ),
});
type PoolSpec = typeof aPoolSpec extends fc.Arbitrary<infer T> ? T : never;

function poolOf(spec: PoolSpec, index: number): NodePool {
  const requirements: NodeSelectorRequirement[] = [
    { key: Label.zone, operator: 'In', values: spec.zones },
  ];
  if (spec.capacityTypes !== undefined)
    requirements.push({ key: Label.capacityType, operator: 'In', values: spec.capacityTypes });
  if (spec.arch !== undefined)
    requirements.push({ key: Label.arch, operator: 'In', values: [spec.arch] });
  if (spec.team === 'exists') requirements.push({ key: 'team', operator: 'Exists' });
  return aNodePool({
    name: `pool-${index}`,
    requirements,
    ...(spec.weight === undefined ? {} : { weight: spec.weight }),
    ...(spec.team === 'a' ? { labels: { team: 'a' } } : {}),
    ...(spec.taint === undefined ? {} : { taints: [spec.taint] }),
    ...(spec.limits === undefined ? {} : { limits: spec.limits }),
  });
}

const aPodSpec = fc.record({
  cpu: fc.integer({ min: 1, max: 30 }).map((n) => `${n * 100}m`),
  memoryMi: fc.integer({ min: 1, max: 24 }).map((n) => n * 256),
  app: fc.constantFrom('web', 'api', 'db'),
  nodeSelector: fc.constantFrom<Record<string, string> | undefined>(
    undefined,
    { [Label.arch]: 'amd64' },
    { [Label.arch]: 'arm64' },
    { [Label.zone]: 'test-zone-b' },
    { [Label.capacityType]: 'on-demand' },
    { team: 'a' },
    { team: 'b' },
  ),
  required: fc.constantFrom<NodeSelectorRequirement | undefined>(
    undefined,
    { key: Label.zone, operator: 'NotIn', values: ['test-zone-a'] },
    { key: 'team', operator: 'Exists' },
    { key: Label.instanceCpu, operator: 'Gte', values: ['4'] },
  ),
  toleration: fc.constantFrom(undefined, ...TOLERATIONS),
  spread: fc.constantFrom(undefined, 'zone', 'hostname', 'zone-anyway'),
  antiAffinity: fc.boolean(),
  hostPort: fc.constantFrom(undefined, undefined, undefined, 8080),
});
type PodSpecInput = typeof aPodSpec extends fc.Arbitrary<infer T> ? T : never;

function affinityOf(spec: PodSpecInput): Affinity | undefined {
  if (spec.required === undefined && !spec.antiAffinity) return undefined;
  return {
    ...(spec.required === undefined
      ? {}
      : {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [spec.required] }],
            },
          },
        }),
    ...(spec.antiAffinity
      ? podAntiAffinity(anAffinityTerm(Label.hostname, { app: spec.app }))
      : {}),
  };
}

function podOf(spec: PodSpecInput, name: string, extra: { nodeName?: string } = {}): Pod {
  const affinity = affinityOf(spec);
  return aPod({
    name,
    cpu: spec.cpu,
    memory: `${spec.memoryMi}Mi`,
    labels: { app: spec.app },
    ...(spec.nodeSelector === undefined ? {} : { nodeSelector: spec.nodeSelector }),
    ...(affinity === undefined ? {} : { affinity }),
    tolerations: spec.toleration === undefined ? [] : [spec.toleration],
    topologySpreadConstraints:
      spec.spread === undefined
        ? []
        : [
            aSpread({
              matchLabels: { app: spec.app },
              topologyKey: spec.spread === 'hostname' ? Label.hostname : Label.zone,
              whenUnsatisfiable: spec.spread === 'zone-anyway' ? 'ScheduleAnyway' : 'DoNotSchedule',
            }),
          ],
    ...(spec.hostPort === undefined ? {} : { hostPort: spec.hostPort }),
    ...extra,
  });
}

const aNodeSpec = fc.record({
  zone: fc.constantFrom(...ZONES),
  cpu: fc.constantFrom('2', '4', '8'),
  managedBy: fc.constantFrom(undefined, 0),
  taint: fc.constantFrom(undefined, undefined, ...TAINTS),
  bound: fc.array(aPodSpec, { maxLength: 3 }),
});

const aCluster = fc.record({
  pools: fc.array(aPoolSpec, { minLength: 1, maxLength: 3 }),
  catalog: fc.subarray([...CATALOG], { minLength: 2 }),
  nodes: fc.array(aNodeSpec, { maxLength: 2 }),
  pending: fc.array(aPodSpec, { minLength: 1, maxLength: 12 }),
  clusterLimits: fc.constantFrom<Record<string, string> | undefined>(
    undefined,
    undefined,
    { nodes: '4' },
    { [HOURLY_COST]: '0.6' },
    { cpu: '16', memory: '48Gi' },
  ),
});
type Cluster = typeof aCluster extends fc.Arbitrary<infer T> ? T : never;

function inputOf(cluster: Cluster): ProvisioningInput {
  const nodePools = cluster.pools.map(poolOf);
  const nodes: Node[] = cluster.nodes.map((spec, i) =>
    aNode({
      name: `node-${i}`,
      cpu: spec.cpu,
      labels: {
        [Label.zone]: spec.zone,
        [Label.arch]: 'amd64',
        [Label.os]: 'linux',
        ...(spec.managedBy === undefined ? {} : { [Label.nodePool]: `pool-${spec.managedBy}` }),
      },
      ...(spec.taint === undefined ? {} : { taints: [spec.taint] }),
    }),
  );
  const bound = cluster.nodes.flatMap((spec, i) =>
    spec.bound.map((p, j) => podOf(p, `bound-${i}-${j}`, { nodeName: `node-${i}` })),
  );
  const pending = cluster.pending.map((p, i) => podOf(p, `pending-${String(i).padStart(2, '0')}`));
  return {
    pods: [...bound, ...pending],
    nodes,
    nodeClaims: [],
    nodePools,
    instanceTypes: new Map(nodePools.map((p) => [p.metadata.name, cluster.catalog])),
    daemonSets: [],
    ...(cluster.clusterLimits === undefined
      ? {}
      : { clusterLimits: clusterLimits(cluster.clusterLimits) }),
  };
}

/** Every pool's limits and the cluster's, each with the plan's usage: what existed and what it adds. */
function limitUsage(input: ProvisioningInput, result: ProvisioningPlan) {
  const before = planningCharges(input);
  const added = result.nodeClaims.map((c) => ({
    nodePool: c.nodePool,
    charge: chargeOf(c.instanceType.capacity, c.offering.pricePerHour),
  }));
  const scopes: LimitScope[] = input.nodePools.flatMap((p) =>
    p.spec.limits === undefined
      ? []
      : [{ nodePool: p.metadata.name, limits: parseLimits(p.spec.limits) }],
  );
  if (input.clusterLimits !== undefined)
    scopes.push({ limits: parseLimits(input.clusterLimits.spec.limits) });
  return scopes.map((scope) => ({
    scope,
    before: usageOf(scope, before),
    after: usageOf(scope, [...before, ...added]),
  }));
}

// Readers --------------------------------------------------------------------------------------

function podsByKey(input: ProvisioningInput): Map<string, Pod> {
  return new Map(input.pods.map((p) => [podKey(p), p]));
}

function requestsOf(keys: readonly string[], pods: ReadonlyMap<string, Pod>): Resources {
  return add(...keys.map((k) => podRequests(pods.get(k) ?? aPod())));
}

/** nodeSelector plus the single required term the generator ever writes. */
function strictRequirements(pod: Pod): Requirements {
  const term =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
      ?.nodeSelectorTerms[0];
  return addRequirements(
    fromLabels(pod.spec.nodeSelector),
    fromNodeSelector(term?.matchExpressions),
  );
}

/** Taints that must be tolerated outright; PreferNoSchedule may be relaxed away. */
function hardTaints(taints: readonly Taint[]): Taint[] {
  return taints.filter((t) => t.effect !== 'PreferNoSchedule');
}

/** Every pod selects the node's labels and tolerates its hard taints. */
function expectAtHome(
  keys: readonly string[],
  pods: ReadonlyMap<string, Pod>,
  node: { readonly labels: Readonly<Record<string, string>>; readonly taints: readonly Taint[] },
): void {
  for (const key of keys) {
    const pod = pods.get(key) ?? aPod();
    expect(labelsSatisfy(node.labels, strictRequirements(pod))).toBe(true);
    expect(firstUntolerated(pod.spec.tolerations, hardTaints(node.taints))).toBeUndefined();
  }
}

function plan(input: ProvisioningInput): ProvisioningPlan {
  return planProvisioning(input);
}

/** Checks `property` on the plan of each random cluster, given its input and pods by key. */
function forEveryCluster(
  property: (
    input: ProvisioningInput,
    result: ProvisioningPlan,
    pods: ReadonlyMap<string, Pod>,
  ) => void,
): void {
  fc.assert(
    fc.property(aCluster, (cluster) => {
      // Prepare
      const input = inputOf(cluster);

      // Act
      const result = plan(input);

      // Assess
      property(input, result, podsByKey(input));
    }),
    RUNS,
  );
}

describe('planProvisioning over random small clusters', () => {
  it("never plans past a limit: a pool's or the cluster's, in nodes, resources or dollars", () => {
    forEveryCluster((input, result) => {
      // Within each limit, or adding nothing to a scope already past it
      for (const { scope, before, after } of limitUsage(input, result)) {
        for (const [name, limit] of Object.entries(scope.limits)) {
          const used = after[name] ?? 0n;
          if (used > limit) expect(used).toBe(before[name]);
        }
      }
    });
  });

  it('never plans more than an instance type or an existing node can hold', () => {
    forEveryCluster((input, result, pods) => {
      for (const claim of result.nodeClaims) {
        const requests = requestsOf(claim.pods, pods);
        expect(claim.requests).toEqual(requests);
        for (const option of claim.instanceTypeOptions) {
          expect(fits(requests, option.allocatable)).toBe(true);
        }
        expect(claim.instanceTypeOptions[0]?.name).toBe(claim.instanceType.name);
      }
      for (const placed of result.existingNodes) {
        const node = input.nodes.find((n) => n.name === placed.name);
        const running = input.pods
          .filter((p) => p.nodeName === placed.name && !isTerminal(p))
          .map(podKey);
        expect(fits(requestsOf([...running, ...placed.pods], pods), node?.allocatable ?? {})).toBe(
          true,
        );
      }
    });
  });

  it('places every pod on a node whose labels it selects and whose taints it tolerates', () => {
    forEveryCluster((input, result, pods) => {
      for (const claim of result.nodeClaims) {
        expectAtHome(claim.pods, pods, claim);
        expect(claim.labels[Label.zone]).toBe(claim.offering.zone);
        expect(claim.offering.available).toBe(true);
      }
      for (const placed of result.existingNodes) {
        const node = input.nodes.find((n) => n.name === placed.name);
        expectAtHome(placed.pods, pods, {
          labels: node?.labels ?? {},
          taints: node?.taints ?? [],
        });
      }
    });
  });

  it('never puts pods that repel each other, or bind the same host port, on one node', () => {
    forEveryCluster((input, result, pods) => {
      const groups = [
        ...result.nodeClaims.map((c) => c.pods),
        ...result.existingNodes.map((n) => [
          ...n.pods,
          ...input.pods.filter((p) => p.nodeName === n.name).map(podKey),
        ]),
      ];
      const placed = (p: Pod) => p.nodeName === undefined;
      for (const keys of groups) {
        const together = keys.map((k) => pods.get(k) ?? aPod());
        for (const pod of together) {
          if (pod.spec.affinity?.podAntiAffinity === undefined) continue;
          const repelled = together.filter(
            (p) => p !== pod && p.labels.app === pod.labels.app && (placed(p) || placed(pod)),
          );
          expect(repelled.map(podKey)).toEqual([]);
        }
        const ports = together.filter(placed).flatMap((p) => hostPortsOf(p).map((hp) => hp.port));
        const bound = together
          .filter((p) => !placed(p))
          .flatMap((p) => hostPortsOf(p).map((hp) => hp.port));
        expect(new Set([...ports, ...new Set(bound)]).size).toBe(
          ports.length + new Set(bound).size,
        );
      }
    });
  });

  it('lists every pending pod exactly once', () => {
    forEveryCluster((input, result) => {
      const pending = input.pods.filter((p) => p.nodeName === undefined).map(podKey);
      const listed = [
        ...result.nodeClaims.flatMap((c) => c.pods),
        ...result.existingNodes.flatMap((n) => n.pods),
        ...result.unschedulable.map((u) => u.pod),
      ];
      expect(listed.sort()).toEqual(pending.sort());
      expect(result.pendingPods).toBe(pending.length);
    });
  });

  it('gives the same plan for the same input, whatever the order of the pods', () => {
    fc.assert(
      fc.property(
        aCluster.chain((cluster) =>
          fc.tuple(
            fc.constant(cluster),
            fc.shuffledSubarray(
              inputOf(cluster).pods.map((_, i) => i),
              {
                minLength: inputOf(cluster).pods.length,
              },
            ),
          ),
        ),
        ([cluster, order]) => {
          // Prepare
          const input = inputOf(cluster);
          const shuffled = { ...input, pods: order.map((i) => input.pods[i] ?? aPod()) };

          // Act
          const first = planProjection(plan(input));
          const again = planProjection(plan(inputOf(cluster)));
          const reordered = planProjection(plan(shuffled));

          // Assess
          expect(again).toEqual(first);
          expect(reordered).toEqual(first);
        },
      ),
      RUNS,
    );
  });
});
