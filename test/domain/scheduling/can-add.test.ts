/**
 * Checking a pod against a claim is apart from adding it: `canAdd` may be asked any number of
 * times (consolidation's simulation asks thousands) and leaves the claim and the Topology as
 * they were; `add` applies exactly what `canAdd` answered.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Label } from '../../../functions/domain/labels.ts';
import type { Requirements } from '../../../functions/domain/requirements/requirements.ts';
import {
  NewNodeClaim,
  type Placement,
} from '../../../functions/domain/scheduling/new-node-claim.ts';
import {
  type NodeClaimTemplate,
  nodeClaimTemplate,
} from '../../../functions/domain/scheduling/node-claim-template.ts';
import { podRequests } from '../../../functions/domain/scheduling/pod-requests.ts';
import { SchedulingPod } from '../../../functions/domain/scheduling/scheduling-pod.ts';
import { Topology } from '../../../functions/domain/scheduling/topology/topology.ts';
import { topologyUniverse } from '../../../functions/domain/scheduling/topology/universe.ts';
import { isUnfit, type Unfit } from '../../../functions/domain/scheduling/unfit.ts';
import { aNodePool, aPod, type PodOptions, someInstanceTypes } from '../../support/builders.ts';
import {
  anAffinityTerm,
  aSpread,
  podAffinity,
  podAntiAffinity,
} from '../../support/scheduling-builders.ts';

type Kind = 'plain' | 'zonal-spread' | 'host-anti-affinity' | 'host-affinity' | 'hostname-spread';

const KINDS: readonly Kind[] = [
  'plain',
  'zonal-spread',
  'host-anti-affinity',
  'host-affinity',
  'hostname-spread',
];

function optionsOf(kind: Kind, cpu: string): PodOptions {
  switch (kind) {
    case 'plain':
      return { cpu };
    case 'zonal-spread':
      return {
        cpu,
        labels: { app: 's' },
        topologySpreadConstraints: [aSpread({ matchLabels: { app: 's' } })],
      };
    case 'host-anti-affinity':
      return {
        cpu,
        labels: { app: 'x' },
        affinity: podAntiAffinity(anAffinityTerm(Label.hostname, { app: 'x' })),
      };
    case 'host-affinity':
      return {
        cpu,
        labels: { app: 'y' },
        affinity: podAffinity(anAffinityTerm(Label.hostname, { app: 'y' })),
      };
    case 'hostname-spread':
      return {
        cpu,
        labels: { app: 'h' },
        topologySpreadConstraints: [
          aSpread({ topologyKey: Label.hostname, matchLabels: { app: 'h' } }),
        ],
      };
  }
}

const aPodSpec = fc.record({
  kind: fc.constantFrom(...KINDS),
  cpu: fc.constantFrom('100m', '500m', '1', '3'),
});

type PodSpecInput = { kind: Kind; cpu: string };

interface World {
  readonly template: NodeClaimTemplate;
  readonly topology: Topology;
  readonly pods: readonly SchedulingPod[];
  readonly probes: readonly SchedulingPod[];
}

function schedulingPod(options: PodOptions): SchedulingPod {
  const pod = aPod(options);
  return new SchedulingPod({
    pod,
    requests: podRequests(pod),
    volumes: new Map(),
    ignorePreferences: false,
  });
}

/** A fresh world: the same pods and probes each time, so two runs can be compared. */
function aWorld(pods: readonly PodSpecInput[], probes: readonly PodSpecInput[]): World {
  const template = nodeClaimTemplate({
    nodePool: aNodePool(),
    instanceTypes: someInstanceTypes(),
    daemonSets: [],
  });
  const built = pods.map((p) => schedulingPod(optionsOf(p.kind, p.cpu)));
  const probing = probes.map((p) => schedulingPod(optionsOf(p.kind, p.cpu)));
  const all = [...built, ...probing];
  const topology = new Topology({
    universe: topologyUniverse(
      [template],
      [],
      all.map((p) => p.pod),
    ),
    boundPods: [],
    namespaces: new Map(),
  });
  for (const pod of all) topology.update(pod.pod, pod.preferences);
  return { template, topology, pods: built, probes: probing };
}

function describeRequirements(requirements: Requirements): string {
  return [...requirements]
    .map(([key, r]) => `${key}${r.complement ? '!' : '='}${[...r.values].sort().join(',')}`)
    .sort()
    .join(';');
}

function describeAnswer(answer: Placement | Unfit): string {
  return !isUnfit(answer)
    ? `fits ${describeRequirements(answer.requirements)}`
    : `${answer.code}: ${answer.reason}`;
}

/** Fills one claim in order; before each pod, `probe` may ask about other pods. */
function fill(world: World, probe: (claim: NewNodeClaim) => void): NewNodeClaim {
  const claim = new NewNodeClaim({ template: world.template, index: 0 });
  for (const pod of world.pods) {
    probe(claim);
    const answer = claim.canAdd(pod, world.topology);
    if (!isUnfit(answer)) claim.add(pod, answer, world.topology);
  }
  return claim;
}

/** What the claim shows, and what the Topology answers a second claim for every probe. */
function observe(world: World, claim: NewNodeClaim): unknown {
  const next = new NewNodeClaim({ template: world.template, index: 1 });
  return {
    pods: claim.pods.map((p) => world.pods.indexOf(p)),
    requirements: describeRequirements(claim.requirements),
    options: claim.options.map((o) => o.instanceType.name),
    requests: claim.requests,
    topology: world.probes.map((p) => describeAnswer(next.canAdd(p, world.topology))),
  };
}

describe('checking a pod apart from adding it', () => {
  it('leaves nothing behind, however often a claim is asked', () => {
    fc.assert(
      fc.property(
        fc.array(aPodSpec, { minLength: 1, maxLength: 12 }),
        fc.array(aPodSpec, { minLength: 1, maxLength: 6 }),
        (pods, probes) => {
          // Prepare
          const asked = aWorld(pods, probes);
          const quiet = aWorld(pods, probes);

          // Act
          const probed = fill(asked, (claim) => {
            for (const probe of asked.probes) claim.canAdd(probe, asked.topology);
          });
          const untouched = fill(quiet, () => {});

          // Assess
          expect(observe(asked, probed)).toEqual(observe(quiet, untouched));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('adds exactly what the check answered', () => {
    fc.assert(
      fc.property(fc.array(aPodSpec, { minLength: 1, maxLength: 12 }), (pods) => {
        // Prepare
        const world = aWorld(pods, []);
        const claim = new NewNodeClaim({ template: world.template, index: 0 });

        for (const pod of world.pods) {
          // Act
          const answer = claim.canAdd(pod, world.topology);
          if (isUnfit(answer)) continue;
          claim.add(pod, answer, world.topology);

          // Assess
          expect(describeRequirements(claim.requirements)).toBe(
            describeRequirements(answer.requirements),
          );
          expect(claim.requests).toEqual(answer.total);
          expect(claim.options).toHaveLength(answer.proposal.remaining);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('leaves a refused candidate claim as it was opened', () => {
    // Prepare: a fresh claim, a pod no option can hold and one that fits
    const world = aWorld([{ kind: 'zonal-spread', cpu: '1' }], []);
    const claim = new NewNodeClaim({ template: world.template, index: 0 });
    const before = observe(world, claim);
    const tooBig = schedulingPod({ ...optionsOf('zonal-spread', '1'), cpu: '10000' });

    // Act
    const refusal = claim.canAdd(tooBig, world.topology);

    // Assess
    expect(describeAnswer(refusal)).toMatch(/^Resources: /);
    expect(observe(world, claim)).toEqual(before);
    expect(claim.options).toHaveLength(world.template.options.length);
  });
});
