/**
 * Static NodePools through controller passes against the simulated API server (core:
 * pkg/controllers/static/provisioning and static/deprovisioning, suite_test.go): the pass
 * launches what the pool lacks of its replicas for no pod, never launches for pods on it, and
 * marks its surplus for deletion, for the usual drain.
 */
import { describe, expect, it } from 'vitest';
import { NODEPOOL_HASH_VERSION } from '../../../functions/domain/disruption/template-hash.ts';
import { clusterLimits } from '../../../functions/domain/limits/cluster-limits.ts';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import { storeDocuments } from '../../support/stored-documents.ts';
import {
  aPassWorld,
  aRunningClaim,
  generalPool,
  staticGeneralPool,
  updateDefaultClass,
  useFakeApiServer,
} from './pass-world.ts';

const server = useFakeApiServer();
const SETTINGS = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };

/** m6i.2xlarge in us-east-1a, reserved first, then on-demand. */
const RESERVED_FIRST = {
  requirements: [
    { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m6i.2xlarge'] },
    { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['reserved', 'on-demand'] },
    { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['us-east-1a'] },
  ],
};

describe('a static NodePool in a pass', () => {
  it('launches its replicas for no pod, once, and says why', async () => {
    // Prepare
    const world = await aPassWorld(server(), 0, { pool: staticGeneralPool(3) });

    // Act
    const first = await runControllerPass(world.deps, SETTINGS);
    const second = await runControllerPass(world.deps, SETTINGS);

    // Assess
    expect(first.launches).toHaveLength(3);
    expect(first.launches.every((l) => l.pods.length === 0 && l.claim.nodePool === 'general')).toBe(
      true,
    );
    expect(second.launches).toEqual([]);
    expect(await world.state.nodeClaims.list()).toHaveLength(3);
    expect(world.decisions.published().map((d) => [d.kind, d.reason])).toEqual(
      Array(3).fill(['Launched', "to keep its static NodePool's replicas"]),
    );
    expect(first.nextWakeSeconds).toBe(10);
  });

  it('never launches for pending pods, which are told the pool is static', async () => {
    // Prepare
    const world = await aPassWorld(server(), 5, { pool: staticGeneralPool(1) });

    // Act
    const report = await runControllerPass(world.deps, SETTINGS);

    // Assess
    expect(report.launches.map((l) => l.pods)).toEqual([[]]);
    expect(report.unschedulable).toHaveLength(5);
    expect(report.unschedulable[0]?.reasons).toEqual([
      expect.objectContaining({ nodePool: 'general', code: 'Static' }),
    ]);
  });

  it('launches no more than limits.nodes allows, and reports what is missing', async () => {
    // Prepare
    const world = await aPassWorld(server(), 0, { pool: staticGeneralPool(4, 2) });

    // Act
    const report = await runControllerPass(world.deps, SETTINGS);

    // Assess
    expect(report.launches).toHaveLength(2);
    expect(report.staticShortfalls).toEqual([
      { nodePool: 'general', missing: 2, reason: 'limits.nodes (2) reached' },
    ]);
  });

  it("reports what the cluster's limits refuse it, one node at a time", async () => {
    // Prepare
    const world = await aPassWorld(server(), 0, { pool: staticGeneralPool(3) });
    await world.state.clusterLimits.create(clusterLimits({ nodes: '1' }), 'limits');

    // Act
    const report = await runControllerPass(world.deps, SETTINGS);

    // Assess
    expect(report.launches).toHaveLength(1);
    expect(report.staticShortfalls).toEqual(
      Array(2).fill({
        nodePool: 'general',
        missing: 1,
        reason: 'The cluster would exceed its nodes limit: 1 of 1 used',
      }),
    );
  });

  it('leaves to others what provisioning launched into a reservation earlier in the pass', async () => {
    // Prepare: a reservation of two m6i.2xlarge the class selects; a pending pod of the dynamic
    // pool takes one of them, and a static pool wants two nodes of the same reserved type
    const world = await aPassWorld(server(), 1, { pool: generalPool(RESERVED_FIRST) });
    world.cloud.ec2.reservations.push({
      id: 'cr-0m6i2xl1a',
      instanceType: 'm6i.2xlarge',
      zone: 'us-east-1a',
      count: 2,
    });
    await updateDefaultClass(world.state, {
      capacityReservationSelectorTerms: [{ id: 'cr-0m6i2xl1a' }],
    });
    const fixed = staticGeneralPool(2) as { spec: { template: { spec: object } } };
    const { template } = fixed.spec;
    await storeDocuments(world.state, [
      {
        ...fixed,
        metadata: { name: 'fixed' },
        spec: {
          ...fixed.spec,
          template: { ...template, spec: { ...template.spec, ...RESERVED_FIRST } },
        },
      },
    ]);

    // Act
    const report = await runControllerPass(world.deps, SETTINGS);

    // Assess
    const launched = report.launches.map((l) => [l.claim.nodePool, l.claim.offering.capacityType]);
    expect(launched.sort()).toEqual([
      ['fixed', 'on-demand'],
      ['fixed', 'reserved'],
      ['general', 'reserved'],
    ]);
    expect(report.failures).toEqual([]);
  });

  it('marks its surplus for deletion, empty nodes first, for termination to drain', async () => {
    // Prepare: three running nodes, one of them busy, and one replica wanted
    const world = await aPassWorld(server(), 0, { pool: staticGeneralPool(1) });
    const busy = await aRunningClaim(world, server(), 'general-aaaaa');
    await aRunningClaim(world, server(), 'general-bbbbb');
    await aRunningClaim(world, server(), 'general-ccccc');
    server().store.create('pods', {
      metadata: { name: 'web', namespace: 'default' },
      spec: { nodeName: busy.nodeName ?? '', containers: [{ name: 'web', image: 'nginx' }] },
      status: { phase: 'Running' },
    });

    // Act
    const report = await runControllerPass(world.deps, SETTINGS);

    // Assess
    const claims = await world.state.nodeClaims.list();
    const going = claims.filter((c) => c.disruption?.reason === 'Overprovisioned');
    expect(going.map((c) => c.name).sort()).toEqual(['general-bbbbb', 'general-ccccc']);
    expect(report.launches).toEqual([]);
    expect(world.decisions.published().filter((d) => d.kind === 'Disrupting')).toHaveLength(2);
    const events = server()
      .store.list('events', 'default')
      .filter((e) => e.reason === 'DisruptionTerminating');
    expect(events).toHaveLength(2);
  });

  it('replaces a drifted node with a claim of its template before the node drains', async () => {
    // Prepare: two nodes made from an older template; the default budget (10%) lets one go
    const world = await aPassWorld(server(), 0, { pool: staticGeneralPool(2) });
    const old = { hash: 'an-older-template', version: NODEPOOL_HASH_VERSION };
    await aRunningClaim(world, server(), 'general-aaaaa', { nodePoolHash: old });
    await aRunningClaim(world, server(), 'general-bbbbb', { nodePoolHash: old });

    // Act
    const report = await runControllerPass(world.deps, SETTINGS);

    // Assess
    const claims = await world.state.nodeClaims.list();
    const replacing = claims.filter((c) => c.disruption?.stage === 'Replacing');
    expect(replacing).toHaveLength(1);
    expect(replacing[0]?.disruption).toMatchObject({ reason: 'Drifted', method: 'drift' });
    const [replacement] = replacing[0]?.disruption?.replacements ?? [];
    expect(claims.find((c) => c.name === replacement)).toMatchObject({
      nodePool: 'general',
      phase: 'Launched',
    });
    expect(report.launches).toEqual([]);
  });
});
