import { describe, expect, it } from 'vitest';
import { Label } from '../../../../functions/domain/labels.ts';
import type { Taint, Toleration } from '../../../../functions/domain/taints.ts';
import { aNodePool, anInstanceType, aPod } from '../../../support/builders.ts';
import {
  aDaemonSet,
  placementOf,
  planFor,
  requiredNodeAffinity,
} from '../../../support/scheduling-builders.ts';

const CATALOG = [
  anInstanceType({ name: 'c.xlarge', cpu: 4, memoryGiB: 8, price: 0.2 }),
  anInstanceType({ name: 'c.2xlarge', cpu: 8, memoryGiB: 16, price: 0.4 }),
  anInstanceType({ name: 'a.xlarge', cpu: 4, memoryGiB: 8, price: 0.15, arch: 'arm64' }),
];

describe('DaemonSet overhead on new nodes', () => {
  it.each<{
    readonly name: string;
    readonly taints: readonly Taint[];
    readonly daemonTolerations: readonly Toleration[];
    readonly podTolerations: readonly Toleration[];
    readonly instanceType: string;
  }>([
    {
      name: 'sizes a node for the pod plus the daemons that will run on it',
      taints: [],
      daemonTolerations: [],
      podTolerations: [],
      instanceType: 'c.2xlarge',
    },
    {
      name: 'leaves out daemons that do not tolerate the pool taints',
      taints: [{ key: 'dedicated', effect: 'NoSchedule' }],
      daemonTolerations: [],
      podTolerations: [{ key: 'dedicated', operator: 'Exists' }],
      instanceType: 'c.xlarge',
    },
    {
      name: 'counts a daemon that tolerates the pool taints',
      taints: [{ key: 'dedicated', effect: 'NoSchedule' }],
      daemonTolerations: [{ operator: 'Exists' }],
      podTolerations: [{ key: 'dedicated', operator: 'Exists' }],
      instanceType: 'c.2xlarge',
    },
    {
      name: 'ignores a PreferNoSchedule taint when deciding where daemons run',
      taints: [{ key: 'soft', effect: 'PreferNoSchedule' }],
      daemonTolerations: [],
      podTolerations: [],
      instanceType: 'c.2xlarge',
    },
  ])('$name', ({ taints, daemonTolerations, podTolerations, instanceType }) => {
    // Prepare
    const pool = aNodePool({ taints });
    const daemon = aDaemonSet({
      name: 'logging',
      cpu: '1500m',
      spec: { tolerations: daemonTolerations },
    });
    const pod = aPod({
      name: 'web',
      cpu: '3',
      nodeSelector: { [Label.arch]: 'amd64' },
      tolerations: podTolerations,
    });

    // Act
    const plan = planFor({
      pods: [pod],
      nodePools: [pool],
      catalog: CATALOG,
      daemonSets: [daemon],
    });

    // Assess: the daemons size the node, but the claim requests what its pods request
    expect(placementOf(plan, pod)).toMatchObject({ instanceType });
    expect(plan.nodeClaims[0]?.requests).toEqual({ cpu: 3000, pods: 1 });
  });

  it('counts a daemon only on the instance types its node affinity selects', () => {
    // Prepare
    const daemon = aDaemonSet({
      name: 'arm-agent',
      cpu: '1500m',
      spec: {
        affinity: requiredNodeAffinity([{ key: Label.arch, operator: 'In', values: ['arm64'] }]),
      },
    });
    const x86 = aPod({ name: 'x86', cpu: '3', nodeSelector: { [Label.arch]: 'amd64' } });
    const arm = aPod({ name: 'arm', cpu: '3', nodeSelector: { [Label.arch]: 'arm64' } });

    // Act
    const plan = planFor({ pods: [x86, arm], catalog: CATALOG, daemonSets: [daemon] });

    // Assess
    expect(placementOf(plan, x86)).toMatchObject({ instanceType: 'c.xlarge' });
    expect(placementOf(plan, arm)).toMatchObject({ kind: 'unschedulable' });
  });

  it('ignores a PreferNoSchedule taint when deciding where daemons run', () => {
    // Prepare
    const pool = aNodePool({ taints: [{ key: 'soft', effect: 'PreferNoSchedule' }] });
    const daemon = aDaemonSet({ name: 'logging', cpu: '1500m' });
    const pod = aPod({ name: 'web', cpu: '3', nodeSelector: { [Label.arch]: 'amd64' } });

    // Act
    const plan = planFor({
      pods: [pod],
      nodePools: [pool],
      catalog: CATALOG,
      daemonSets: [daemon],
    });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ instanceType: 'c.2xlarge' });
  });
});

describe('host ports', () => {
  it('keeps two pods that bind the same host port on separate nodes', () => {
    // Prepare
    const pods = [0, 1].map((i) => aPod({ name: `proxy-${i}`, cpu: '100m', hostPort: 8080 }));

    // Act
    const plan = planFor({ pods, catalog: CATALOG });

    // Assess
    expect(plan.nodeClaims.map((c) => c.pods.length)).toEqual([1, 1]);
  });

  it('lets pods with different host ports share a node', () => {
    // Prepare
    const pods = [8080, 8081].map((port) =>
      aPod({ name: `proxy-${port}`, cpu: '100m', hostPort: port }),
    );

    // Act
    const plan = planFor({ pods, catalog: CATALOG });

    // Assess
    expect(plan.nodeClaims.map((c) => c.pods.length)).toEqual([2]);
  });

  it('keeps a pod off a pool whose daemons hold its host port', () => {
    // Prepare
    const daemon = aDaemonSet({ name: 'node-exporter', cpu: '10m', hostPort: 9100 });
    const pod = aPod({ name: 'exporter', cpu: '100m', hostPort: 9100 });

    // Act
    const plan = planFor({ pods: [pod], catalog: CATALOG, daemonSets: [daemon] });

    // Assess
    expect(plan.unschedulable[0]?.reasons[0]).toMatchObject({ code: 'HostPorts' });
    expect(plan.unschedulable[0]?.reason).toContain('host port TCP/9100 is in use');
  });
});
