import { describe, expect, it } from 'vitest';
import { Label } from '../../../../functions/domain/labels.ts';
import { aNodePool, anInstanceType, aPod } from '../../../support/builders.ts';
import {
  placementOf,
  planFor,
  preferredNodeAffinity,
  requiredNodeAffinity,
  zoneIn,
} from '../../../support/scheduling-builders.ts';

/** One size only, so pods of 3 CPU never share a node. */
const FOUR_CPU = anInstanceType({ name: 'c.xlarge', cpu: 4, memoryGiB: 8, price: 0.2 });

describe('nodeSelector and required node affinity', () => {
  it('picks an instance type with the selected architecture', () => {
    // Prepare
    const pod = aPod({ name: 'arm', cpu: '1', nodeSelector: { [Label.arch]: 'arm64' } });

    // Act
    const plan = planFor({ pods: [pod] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ instanceType: 'g.xlarge' });
    expect(plan.nodeClaims[0]?.instanceTypeOptions.map((it) => it.name)).toEqual(['g.xlarge']);
  });

  it('understands the deprecated beta labels', () => {
    // Prepare
    const pod = aPod({
      name: 'legacy',
      cpu: '1',
      nodeSelector: {
        'beta.kubernetes.io/arch': 'arm64',
        'failure-domain.beta.kubernetes.io/zone': 'test-zone-b',
      },
    });

    // Act
    const plan = planFor({ pods: [pod] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ instanceType: 'g.xlarge', zone: 'test-zone-b' });
  });

  it('pins the zone a pod selects', () => {
    // Prepare
    const pod = aPod({ name: 'zonal', cpu: '1', nodeSelector: { [Label.zone]: 'test-zone-c' } });

    // Act
    const plan = planFor({ pods: [pod] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ zone: 'test-zone-c' });
  });

  it('refuses a custom label that no pool defines', () => {
    // Prepare
    const pod = aPod({ name: 'team', cpu: '1', nodeSelector: { team: 'a' } });

    // Act
    const plan = planFor({ pods: [pod] });

    // Assess
    expect(plan.unschedulable[0]?.reason).toBe(
      'nodepool "default": label "team" does not have known values',
    );
  });

  it('matches a custom label from the pool template and stamps it on the node', () => {
    // Prepare
    const pool = aNodePool({ labels: { team: 'a' } });
    const pod = aPod({ name: 'team', cpu: '1', nodeSelector: { team: 'a' } });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'claim' });
    expect(plan.nodeClaims[0]?.labels.team).toBe('a');
  });

  it("stamps the pod's value of a custom label the pool only requires to exist", () => {
    // Prepare
    const pool = aNodePool({
      requirements: [
        { key: Label.capacityType, operator: 'In', values: ['on-demand'] },
        { key: 'team', operator: 'Exists' },
      ],
    });
    const a = aPod({ name: 'team-a', cpu: '3', nodeSelector: { team: 'a' } });
    const b = aPod({ name: 'team-b', cpu: '3', nodeSelector: { team: 'b' } });
    const any = aPod({
      name: 'any-team',
      cpu: '3',
      affinity: requiredNodeAffinity([{ key: 'team', operator: 'Exists' }]),
    });

    // Act
    const plan = planFor({ pods: [a, b, any], nodePools: [pool], catalog: [FOUR_CPU] });

    // Assess
    expect(plan.nodeClaims.map((c) => [c.pods, c.labels.team])).toEqual([
      [['default/any-team'], '0'],
      [['default/team-a'], 'a'],
      [['default/team-b'], 'b'],
    ]);
  });

  it('tries the required node-affinity terms in order', () => {
    // Prepare
    const pod = aPod({
      name: 'fallback',
      cpu: '1',
      affinity: requiredNodeAffinity(
        [zoneIn('test-zone-x')],
        [zoneIn('test-zone-b')],
        [zoneIn('test-zone-c')],
      ),
    });

    // Act
    const plan = planFor({ pods: [pod] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ zone: 'test-zone-b' });
  });

  it('reports a pod whose every required term is impossible', () => {
    // Prepare
    const pod = aPod({
      name: 'nowhere',
      cpu: '1',
      affinity: requiredNodeAffinity([zoneIn('test-zone-x')], [zoneIn('test-zone-y')]),
    });

    // Act
    const plan = planFor({ pods: [pod] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'unschedulable' });
    expect(plan.unschedulable[0]?.reasons[0]?.code).toBe('Requirements');
  });

  it('keeps a pod off a pool whose requirements exclude what it needs', () => {
    // Prepare
    const pool = aNodePool({ requirements: [zoneIn('test-zone-a')] });
    const pod = aPod({ name: 'b-only', cpu: '1', nodeSelector: { [Label.zone]: 'test-zone-b' } });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool] });

    // Assess
    expect(plan.unschedulable[0]?.reasons[0]?.code).toBe('Requirements');
  });
});

describe('preferred node affinity', () => {
  it('honours the heaviest preference', () => {
    // Prepare
    const pod = aPod({
      name: 'prefers-c',
      cpu: '1',
      affinity: preferredNodeAffinity(
        { weight: 1, expressions: [zoneIn('test-zone-b')] },
        { weight: 50, expressions: [zoneIn('test-zone-c')] },
      ),
    });

    // Act
    const plan = planFor({ pods: [pod] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ zone: 'test-zone-c' });
  });

  it('falls back to the next preference when the heaviest cannot be met', () => {
    // Prepare
    const pod = aPod({
      name: 'prefers-x',
      cpu: '1',
      affinity: preferredNodeAffinity(
        { weight: 50, expressions: [zoneIn('test-zone-x')] },
        { weight: 1, expressions: [zoneIn('test-zone-b')] },
      ),
    });

    // Act
    const plan = planFor({ pods: [pod] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ zone: 'test-zone-b' });
  });

  it('places the pod anyway when no preference can be met', () => {
    // Prepare
    const pod = aPod({
      name: 'prefers-power',
      cpu: '1',
      affinity: preferredNodeAffinity({
        weight: 10,
        expressions: [{ key: Label.arch, operator: 'In', values: ['ppc64le'] }],
      }),
    });

    // Act
    const plan = planFor({ pods: [pod] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'claim' });
  });

  it('never relaxes a nodeSelector', () => {
    // Prepare
    const pod = aPod({
      name: 'strict',
      cpu: '1',
      nodeSelector: { [Label.arch]: 'ppc64le' },
      affinity: preferredNodeAffinity({ weight: 10, expressions: [zoneIn('test-zone-a')] }),
    });

    // Act
    const plan = planFor({ pods: [pod] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'unschedulable' });
  });

  it('ignores preferences up front under the Ignore policy', () => {
    // Prepare
    const pod = aPod({
      name: 'prefers-c',
      cpu: '1',
      affinity: preferredNodeAffinity({ weight: 50, expressions: [zoneIn('test-zone-c')] }),
    });

    // Act
    const plan = planFor({ pods: [pod], preferencePolicy: 'Ignore' });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ zone: 'test-zone-a' });
  });
});
