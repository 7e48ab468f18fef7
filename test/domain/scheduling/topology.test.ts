import { describe, expect, it } from 'vitest';
import { Label } from '../../../functions/domain/labels.ts';
import type { Pod } from '../../../functions/domain/pod.ts';
import { requirement } from '../../../functions/domain/requirements/requirement.ts';
import {
  type Requirements,
  requirementsOf,
} from '../../../functions/domain/requirements/requirements.ts';
import { preferencesOf } from '../../../functions/domain/scheduling/preferences.ts';
import {
  narrowedToPod,
  nodeAllows,
  Topology,
} from '../../../functions/domain/scheduling/topology/topology.ts';
import { aPod } from '../../support/builders.ts';
import {
  anAffinityTerm,
  aSpread,
  podAffinity,
  podAntiAffinity,
} from '../../support/scheduling-builders.ts';

const DB = { app: 'db' };

function aTopology(pods: readonly Pod[]): Topology {
  const topology = new Topology({
    universe: new Map([
      [
        Label.zone,
        ['a', 'b', 'c'].map((domain) => ({ domain, requirements: new Map(), taints: [] })),
      ],
    ]),
    boundPods: [],
    namespaces: new Map(),
  });
  for (const pod of pods) topology.update(pod, preferencesOf(pod));
  return topology;
}

function on(key: string, value: string) {
  return requirementsOf([requirement(key, 'In', [value])]);
}

describe('the hosts a hostname pod affinity confines a pod to', () => {
  const affine = () =>
    aPod({ labels: DB, affinity: podAffinity(anAffinityTerm(Label.hostname, DB)) });

  it('are the hosts that run a selected pod', () => {
    // Prepare
    const first = affine();
    const second = affine();
    const third = affine();
    const topology = aTopology([first, second, third]);
    topology.record(first, on(Label.hostname, 'host-1'), []);
    topology.record(second, on(Label.hostname, 'host-2'), []);

    // Act
    const hosts = topology.confinement(third, false)?.hosts;

    // Assess
    expect([...(hosts ?? [])].sort()).toEqual(['host-1', 'host-2']);
  });

  it('are none for a pod drawn to a group nobody runs yet, and any for one that starts its own', () => {
    // Prepare
    const follower = aPod({
      labels: { app: 'web' },
      affinity: podAffinity(anAffinityTerm(Label.hostname, DB)),
    });
    const founder = affine();
    const plain = aPod({ labels: DB });
    const topology = aTopology([follower, founder, plain]);

    // Act
    const answers = [
      topology.confinement(follower, false)?.hosts,
      topology.confinement(founder, false)?.hosts,
      topology.confinement(follower, true)?.hosts,
      topology.confinement(plain, false)?.hosts,
    ];

    // Assess
    expect(answers.map((hosts) => (hosts === undefined ? 'any' : [...hosts]))).toEqual([
      [],
      'any',
      'any',
      'any',
    ]);
  });
});

describe('the domains a zonal spread allows a pod now', () => {
  it('rule out a node in a zone the spread would overfill', () => {
    // Prepare
    const spread = () =>
      aPod({
        labels: { app: 'web' },
        topologySpreadConstraints: [aSpread({ matchLabels: { app: 'web' } })],
      });
    const placed = spread();
    const next = spread();
    const topology = aTopology([placed, next]);
    topology.record(placed, on(Label.zone, 'a'), []);

    // Act
    const restrictions = topology.restrictions(next, new Map());

    // Assess
    expect(restrictions).toEqual([{ key: Label.zone, domains: ['b', 'c'] }]);
    const allows = (node: Requirements, pod: Requirements) =>
      nodeAllows(narrowedToPod(restrictions, pod), node);
    expect(allows(on(Label.zone, 'a'), new Map())).toBe(false);
    expect(allows(on(Label.zone, 'b'), new Map())).toBe(true);
    expect(allows(new Map(), on(Label.zone, 'a'))).toBe(false);
    expect(allows(new Map(), new Map())).toBe(true);
  });
});

describe('the hosts a hostname anti-affinity keeps a pod off', () => {
  const repelling = () =>
    aPod({ labels: DB, affinity: podAntiAffinity(anAffinityTerm(Label.hostname, DB)) });

  it('are those running a selected pod, named the same for every pod of the group', () => {
    // Prepare
    const [first, second, third] = [repelling(), repelling(), repelling()];
    const plain = aPod({ labels: { app: 'web' } });
    const topology = aTopology([first, second, third, plain]);
    topology.record(first, on(Label.hostname, 'host-1'), []);

    // Act
    const before = topology.lastingHostBlock(second);
    topology.record(second, on(Label.hostname, 'host-2'), []);
    const after = topology.lastingHostBlock(third);

    // Assess
    expect(topology.lastingHostBlock(plain)).toBeUndefined();
    expect(before?.id).toBe(after?.id);
    expect(['host-1', 'host-2', 'host-3'].map((h) => after?.blocks(h))).toEqual([
      true,
      true,
      false,
    ]);
    expect(before?.blocks('host-2')).toBe(true);
  });
});

describe('whether any topology group constrains or counts a pod', () => {
  it('is so for a pod with a constraint, a pod another pod selects, and no other', () => {
    // Prepare
    const spread = aPod({
      labels: { app: 'web' },
      topologySpreadConstraints: [aSpread({ matchLabels: DB })],
    });
    const selected = aPod({ labels: DB });
    const plain = aPod({ labels: { app: 'batch' } });
    const topology = aTopology([spread, selected, plain]);

    // Act
    const touched = [spread, selected, plain].map((pod) => topology.touches(pod));

    // Assess
    expect(touched).toEqual([true, true, false]);
  });
});
