import { describe, expect, it } from 'vitest';
import type { InstanceType } from '../../../functions/domain/instance-type.ts';
import { Label } from '../../../functions/domain/labels.ts';
import type { Pod } from '../../../functions/domain/pod.ts';
import { NewNodeClaim } from '../../../functions/domain/scheduling/new-node-claim.ts';
import { nodeClaimTemplate } from '../../../functions/domain/scheduling/node-claim-template.ts';
import { podRequests } from '../../../functions/domain/scheduling/pod-requests.ts';
import { SchedulingPod } from '../../../functions/domain/scheduling/scheduling-pod.ts';
import { Topology } from '../../../functions/domain/scheduling/topology/topology.ts';
import { isUnfit } from '../../../functions/domain/scheduling/unfit.ts';
import { aNodePool, anInstanceType, aPod, type PodOptions } from '../../support/builders.ts';
import { anAffinityTerm, podAffinity } from '../../support/scheduling-builders.ts';

/** The 16-core type costs 25 % more per core than the others: never efficient to grow into. */
const OVERPRICED = [
  anInstanceType({ name: 'm.large', cpu: 2, memoryGiB: 8, price: 0.1 }),
  anInstanceType({ name: 'm.xlarge', cpu: 4, memoryGiB: 16, price: 0.2 }),
  anInstanceType({ name: 'm.4xlarge', cpu: 16, memoryGiB: 64, price: 1.0 }),
];

function setUp(catalog: readonly InstanceType[] = OVERPRICED) {
  const template = nodeClaimTemplate({
    nodePool: aNodePool(),
    instanceTypes: catalog,
    daemonSets: [],
  });
  const topology = new Topology({ universe: new Map(), boundPods: [], namespaces: new Map() });
  const claim = new NewNodeClaim({ template, index: 0 });
  const add = (...pods: SchedulingPod[]) => {
    for (const pod of pods) {
      const answer = claim.canAdd(pod, topology);
      if (isUnfit(answer)) throw new Error(`refused: ${answer.reason}`);
      claim.add(pod, answer, topology);
    }
  };
  return { claim, topology, add };
}

function schedulingPod(pod: Pod): SchedulingPod {
  return new SchedulingPod({
    pod,
    requests: podRequests(pod),
    volumes: new Map(),
    ignorePreferences: false,
  });
}

function a(options: PodOptions): SchedulingPod {
  return schedulingPod(aPod(options));
}

function web(count: number): SchedulingPod[] {
  return Array.from({ length: count }, () => a({ cpu: '1', memory: '1Gi' }));
}

const affine = (options: PodOptions) =>
  a({
    ...options,
    labels: { app: 'cache' },
    affinity: podAffinity(anAffinityTerm(Label.hostname, { app: 'cache' })),
  });

describe('whether a new claim has room for a pod', () => {
  it.each<[string, PodOptions, boolean]>([
    ['a first pod only the inefficient largest type holds', { cpu: '8', memory: '8Gi' }, true],
    ['a first pod filling the largest type exactly', { cpu: '16', memory: '64Gi' }, true],
    ['not a first pod with more CPU than any type', { cpu: '17' }, false],
    ['not a first pod with more memory than any type', { cpu: '1', memory: '65Gi' }, false],
  ])('has room for %s', (_label, options, expected) => {
    // Prepare
    const { claim } = setUp();

    // Act
    const room = claim.hasRoomFor(a(options));

    // Assess
    expect(room).toBe(expected);
  });

  it('takes pods while an efficient type can hold them all, then refuses', () => {
    // Prepare
    const { claim, add } = setUp();
    add(...web(3));

    // Act
    const beforeFull = claim.hasRoomFor(a({ cpu: '1', memory: '1Gi' }));
    add(...web(1));
    const whenFull = claim.hasRoomFor(a({ cpu: '1', memory: '1Gi' }));

    // Assess
    expect(beforeFull).toBe(true);
    expect(whenFull).toBe(false);
    expect(claim.options.map((o) => o.instanceType.name)).toEqual(['m.xlarge', 'm.4xlarge']);
  });

  it('explains the refusal when asked to add a pod past the efficient size', () => {
    // Prepare
    const { claim, topology, add } = setUp();
    add(...web(4));

    // Act
    const reason = claim.canAdd(a({ cpu: '1', memory: '1Gi' }), topology);

    // Assess
    expect(reason).toEqual({
      code: 'Resources',
      reason: 'would grow into a less cost-efficient instance type',
    });
    expect(claim.pods).toHaveLength(4);
  });

  it('gives pods that must share a node all the room of the largest type', () => {
    // Prepare
    const { claim, add } = setUp();
    add(...web(4));

    // Act
    const fits = claim.hasRoomFor(affine({ cpu: '12', memory: '1Gi' }));
    const tooBig = claim.hasRoomFor(affine({ cpu: '13', memory: '1Gi' }));

    // Assess
    expect(fits).toBe(true);
    expect(tooBig).toBe(false);
  });

  it('holds back memory-only pods at the efficient size, as it does CPU', () => {
    // Prepare: with no CPU asked, the mix is memory and pod slots; m.4xlarge is overpriced.
    const { claim, add } = setUp();
    add(a({ memory: '1Gi' }));

    // Act
    const fits = claim.hasRoomFor(a({ memory: '8Gi' }));
    const tooBig = claim.hasRoomFor(a({ memory: '40Gi' }));

    // Assess
    expect(fits).toBe(true);
    expect(tooBig).toBe(false);
  });

  it('refuses a second GPU pod that only a 4-GPU type, dearer than two 1-GPU ones, could hold', () => {
    // Prepare
    const gpu = (n: number) => ({ 'nvidia.com/gpu': n });
    const { claim, add } = setUp([
      anInstanceType({ name: 'g.xlarge', cpu: 4, memoryGiB: 16, price: 0.8, extra: gpu(1) }),
      anInstanceType({ name: 'g.12xlarge', cpu: 48, memoryGiB: 192, price: 4.6, extra: gpu(4) }),
    ]);
    const vllm = () => a({ cpu: '2', memory: '10Gi', requests: { 'nvidia.com/gpu': '1' } });
    add(vllm());

    // Act
    const room = claim.hasRoomFor(vllm());

    // Assess
    expect(room).toBe(false);
    expect(claim.cheapest()?.instanceType.name).toBe('g.xlarge');
  });

  it('refuses pods past the pod slots of the efficient types', () => {
    // Prepare: per slot, m.big costs twice what m.small does; CPU and memory are no bound.
    const { claim, add } = setUp([
      anInstanceType({ name: 'm.small', cpu: 2, memoryGiB: 8, price: 0.1, pods: 10 }),
      anInstanceType({ name: 'm.big', cpu: 64, memoryGiB: 256, price: 1.0, pods: 50 }),
    ]);
    const tiny = () => a({ cpu: '10m', memory: '16Mi' });
    for (let i = 0; i < 10; i++) add(tiny());

    // Act
    const room = claim.hasRoomFor(tiny());

    // Assess
    expect(room).toBe(false);
  });

  it('counts pod slots, even for pods that must share a node', () => {
    // Prepare
    const { claim, add } = setUp([
      anInstanceType({ name: 'm.large', cpu: 2, memoryGiB: 8, price: 0.1, pods: 2 }),
    ]);
    add(a({ cpu: '100m' }));

    // Act
    const beforeFull = claim.hasRoomFor(a({ cpu: '100m' }));
    add(a({ cpu: '100m' }));
    const plain = claim.hasRoomFor(a({ cpu: '100m' }));
    const shared = claim.hasRoomFor(affine({ cpu: '100m' }));

    // Assess
    expect(beforeFull).toBe(true);
    expect(plain).toBe(false);
    expect(shared).toBe(false);
  });
});
