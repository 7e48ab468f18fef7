import { describe, expect, it } from 'vitest';
import { Label } from '../../../functions/domain/labels.ts';
import type { Pod, TopologySpreadConstraint } from '../../../functions/domain/pod.ts';
import { requirement } from '../../../functions/domain/requirements/requirement.ts';
import { fromLabels, requirementsOf } from '../../../functions/domain/requirements/requirements.ts';
import { nodeClaimTemplate } from '../../../functions/domain/scheduling/node-claim-template.ts';
import {
  ANY_NODE,
  filterMatchesNode,
  filterMatchesRequirements,
  nodeFilterFor,
} from '../../../functions/domain/scheduling/topology/node-filter.ts';
import { topologyUniverse } from '../../../functions/domain/scheduling/topology/universe.ts';
import type { Taint } from '../../../functions/domain/taints.ts';
import { aNode, aNodePool, aPod, someInstanceTypes } from '../../support/builders.ts';
import {
  anAffinityTerm,
  appPods,
  aSpread,
  planFor,
  podAntiAffinity,
  podsPerZone,
  requiredNodeAffinity,
  zoneIn,
} from '../../support/scheduling-builders.ts';

const GPU_TAINT: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
const SSD = { disk: 'ssd' };
const HDD = { disk: 'hdd' };

function spread(extra: Partial<TopologySpreadConstraint> = {}): TopologySpreadConstraint {
  return aSpread({ matchLabels: { app: 'web' }, ...extra });
}

describe('which nodes a spread counts', () => {
  const honorBoth = spread({ nodeAffinityPolicy: 'Honor', nodeTaintsPolicy: 'Honor' });
  const cases: [string, Pod, TopologySpreadConstraint, Record<string, string>, Taint[], boolean][] =
    [
      [
        'any node when both policies are Ignore',
        aPod({ nodeSelector: SSD }),
        spread({ nodeAffinityPolicy: 'Ignore' }),
        HDD,
        [GPU_TAINT],
        true,
      ],
      ['a node the nodeSelector matches', aPod({ nodeSelector: SSD }), spread(), SSD, [], true],
      [
        'not a node the nodeSelector rejects',
        aPod({ nodeSelector: SSD }),
        spread(),
        HDD,
        [],
        false,
      ],
      ['a tainted node by default', aPod({ nodeSelector: SSD }), spread(), SSD, [GPU_TAINT], true],
      [
        'not a tainted node under nodeTaintsPolicy Honor',
        aPod(),
        honorBoth,
        SSD,
        [GPU_TAINT],
        false,
      ],
      [
        'a tainted node the pod tolerates',
        aPod({ tolerations: [{ key: 'dedicated', operator: 'Exists' }] }),
        honorBoth,
        SSD,
        [GPU_TAINT],
        true,
      ],
      [
        'a node matching either required affinity term',
        aPod({
          affinity: requiredNodeAffinity(
            [{ key: 'disk', operator: 'In', values: ['nvme'] }],
            [{ key: 'disk', operator: 'In', values: ['hdd'] }],
          ),
        }),
        spread(),
        HDD,
        [],
        true,
      ],
      [
        'not a node failing the nodeSelector ANDed into each term',
        aPod({
          nodeSelector: SSD,
          affinity: requiredNodeAffinity([{ key: 'disk', operator: 'Exists' }]),
        }),
        spread(),
        HDD,
        [],
        false,
      ],
    ];

  it.each(cases)('counts %s', (_label, pod, constraint, labels, taints, expected) => {
    // Prepare
    const filter = nodeFilterFor(pod, constraint);

    // Act
    const byLabels = filterMatchesNode(filter, labels, taints);
    const byRequirements = filterMatchesRequirements(filter, fromLabels(labels), taints);

    // Assess
    expect(byLabels).toBe(expected);
    expect(byRequirements).toBe(expected);
  });

  it('uses the shared any-node filter when nothing is honoured', () => {
    // Act
    const filter = nodeFilterFor(
      aPod({ nodeSelector: SSD }),
      spread({ nodeAffinityPolicy: 'Ignore', nodeTaintsPolicy: 'Ignore' }),
    );

    // Assess
    expect(filter).toBe(ANY_NODE);
  });

  it('tells apart filters of pods that select or tolerate differently', () => {
    // Prepare
    const honorTaints = spread({ nodeTaintsPolicy: 'Honor' });

    // Act
    const keys = [
      nodeFilterFor(aPod({ nodeSelector: SSD }), honorTaints).key,
      nodeFilterFor(aPod({ nodeSelector: SSD }), honorTaints).key,
      nodeFilterFor(aPod({ nodeSelector: HDD }), honorTaints).key,
      nodeFilterFor(
        aPod({ nodeSelector: SSD, tolerations: [{ key: 'dedicated', operator: 'Exists' }] }),
        honorTaints,
      ).key,
    ];

    // Assess
    expect(keys[1]).toBe(keys[0]);
    expect(new Set(keys).size).toBe(3);
  });

  it('lets a pool that leaves a well-known label open pass, but not one lacking a custom label', () => {
    // Prepare
    const filter = nodeFilterFor(
      aPod({ nodeSelector: { ...SSD, [Label.zone]: 'test-zone-a' } }),
      spread(),
    );

    // Act
    const withDisk = filterMatchesRequirements(filter, fromLabels(SSD), []);
    const withoutDisk = filterMatchesRequirements(filter, fromLabels({}), []);

    // Assess
    expect(withDisk).toBe(true);
    expect(withoutDisk).toBe(false);
  });
});

describe('the domains of each topology key', () => {
  const templates = [
    nodeClaimTemplate({
      nodePool: aNodePool({
        name: 'two-zones',
        requirements: [
          zoneIn('test-zone-a', 'test-zone-b'),
          { key: 'rack', operator: 'In', values: ['r1', 'r2'] },
        ],
      }),
      instanceTypes: someInstanceTypes(),
      daemonSets: [],
    }),
    nodeClaimTemplate({
      nodePool: aNodePool({
        name: 'tainted',
        taints: [GPU_TAINT],
        requirements: [{ key: 'rack', operator: 'NotIn', values: ['r1'] }],
      }),
      instanceTypes: someInstanceTypes(),
      daemonSets: [],
    }),
  ];
  const nodes = [
    {
      requirements: fromLabels({ [Label.hostname]: 'node-x', [Label.zone]: 'test-zone-d' }),
      taints: [],
    },
  ];

  function domains(pods: readonly Pod[]) {
    const universe = topologyUniverse(templates, nodes, pods);
    return Object.fromEntries(
      [...universe].map(([key, sources]) => [key, sources.map((s) => s.domain)]),
    );
  }

  it('knows only the keys pending or bound pods constrain', () => {
    // Prepare
    const pods = [
      aPod({ topologySpreadConstraints: [spread({ topologyKey: Label.zone })] }),
      aPod({ affinity: podAntiAffinity(anAffinityTerm(Label.hostname, { app: 'web' })) }),
      aPod({
        affinity: {
          podAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 1, podAffinityTerm: anAffinityTerm('rack', { app: 'db' }) },
            ],
          },
        },
      }),
    ];

    // Act
    const universe = topologyUniverse(templates, nodes, pods);

    // Assess
    expect([...universe.keys()].sort()).toEqual([Label.hostname, Label.zone, 'rack'].sort());
    expect(topologyUniverse(templates, nodes, [aPod()]).size).toBe(0);
  });

  it('takes zones from what each pool allows of its instance types, and from nodes', () => {
    // Act
    const byKey = domains([aPod({ topologySpreadConstraints: [spread()] })]);

    // Assess
    expect(byKey[Label.zone]).toEqual([
      'test-zone-a',
      'test-zone-b',
      'test-zone-a',
      'test-zone-b',
      'test-zone-c',
      'test-zone-d',
    ]);
  });

  it('takes custom domains from the values a pool declares, never from an open-ended one', () => {
    // Act
    const byKey = domains([aPod({ topologySpreadConstraints: [spread({ topologyKey: 'rack' })] })]);

    // Assess
    expect(byKey.rack).toEqual(['r1', 'r2']);
  });

  it('takes hostnames from existing nodes only: new claims open theirs as they go', () => {
    // Act
    const byKey = domains([
      aPod({ topologySpreadConstraints: [spread({ topologyKey: Label.hostname })] }),
    ]);

    // Assess
    expect(byKey[Label.hostname]).toEqual(['node-x']);
  });

  it('keeps the taints and requirements of the pool that offers each domain', () => {
    // Act
    const universe = topologyUniverse(templates, nodes, [
      aPod({ topologySpreadConstraints: [spread()] }),
    ]);

    // Assess
    const zoneC = (universe.get(Label.zone) ?? []).find((s) => s.domain === 'test-zone-c');
    expect(zoneC?.taints).toEqual([GPU_TAINT]);
    expect(zoneC?.requirements.get(Label.nodePool)).toEqual(
      requirementsOf([requirement(Label.nodePool, 'In', ['tainted'])]).get(Label.nodePool),
    );
  });
});

describe('spreading over the domains a pod could use', () => {
  const open = aNodePool({ name: 'open', requirements: [zoneIn('test-zone-a', 'test-zone-b')] });
  const tainted = aNodePool({
    name: 'tainted',
    taints: [GPU_TAINT],
    requirements: [zoneIn('test-zone-c')],
  });

  function web(count: number, constraint: TopologySpreadConstraint, nodeSelector = {}) {
    return appPods('web', count, {
      cpu: '1',
      nodeSelector,
      topologySpreadConstraints: [constraint],
    });
  }

  it.each([
    [
      'ignores the zone of a pool whose taints it does not tolerate under Honor',
      'Honor' as const,
      { 'test-zone-a': 2, 'test-zone-b': 2 },
      0,
    ],
    [
      'counts the zone of a tainted pool under Ignore, and cannot fill it',
      'Ignore' as const,
      { 'test-zone-a': 1, 'test-zone-b': 1 },
      2,
    ],
  ])('%s', (_label, nodeTaintsPolicy, perZone, unschedulable) => {
    // Prepare
    const pods = web(4, spread({ nodeTaintsPolicy }));

    // Act
    const plan = planFor({ pods, nodePools: [open, tainted] });

    // Assess
    expect(podsPerZone(plan)).toEqual(perZone);
    expect(plan.unschedulable).toHaveLength(unschedulable);
    for (const claim of plan.nodeClaims) expect(claim.nodePool, claim.name).toBe('open');
  });

  const ssdPool = aNodePool({
    name: 'ssd',
    labels: SSD,
    requirements: [zoneIn('test-zone-a', 'test-zone-b')],
  });

  it.each([
    [
      'ignores the pods of a node it does not select under Honor',
      'Honor' as const,
      { 'test-zone-a': 1, 'test-zone-b': 1 },
    ],
    [
      'counts the pods of a node it does not select under Ignore',
      'Ignore' as const,
      { 'test-zone-b': 2 },
    ],
  ])('%s', (_label, nodeAffinityPolicy, perZone) => {
    // Prepare
    const hdd = aNode({ name: 'hdd-a', labels: { ...HDD, [Label.zone]: 'test-zone-a' } });
    const running = [0, 1].map((i) =>
      aPod({ name: `old-${i}`, cpu: '1', labels: { app: 'web' }, nodeName: 'hdd-a' }),
    );
    const pods = web(2, spread({ nodeAffinityPolicy }), SSD);

    // Act
    const plan = planFor({ pods: [...running, ...pods], nodes: [hdd], nodePools: [ssdPool] });

    // Assess
    expect(podsPerZone(plan)).toEqual(perZone);
    expect(plan.unschedulable).toEqual([]);
  });

  it.each([
    ['ignores the zone of a node it does not select under Honor', 'Honor' as const, 0],
    ['counts the zone of a node it does not select under Ignore', 'Ignore' as const, 2],
  ])('%s', (_label, nodeAffinityPolicy, unschedulable) => {
    // Prepare
    const hdd = aNode({ name: 'hdd-c', labels: { ...HDD, [Label.zone]: 'test-zone-c' } });
    const pods = web(4, spread({ nodeAffinityPolicy }), SSD);

    // Act
    const plan = planFor({ pods, nodes: [hdd], nodePools: [ssdPool] });

    // Assess
    expect(plan.unschedulable).toHaveLength(unschedulable);
    expect(plan.existingNodes).toEqual([]);
  });
});
