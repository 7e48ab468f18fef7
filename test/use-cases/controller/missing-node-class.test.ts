/**
 * A NodePool whose EC2NodeClass is not stored is not ready, as Karpenter's readiness controller
 * reports it (NodeClassNotFound): the pass launches nothing for it — never with a class nobody
 * wrote — its pods say which class is missing, its nodes stay, and once the class is stored the
 * next pass launches.
 */
import { describe, expect, it } from 'vitest';
import type { EC2NodeClass } from '../../../functions/domain/node-class.ts';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import type { JsonObject } from '../../../simulator/api-server/json.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import { aPassWorld, aRunningClaim, type PassWorld, T0, useFakeApiServer } from './pass-world.ts';

const server = useFakeApiServer();

const settings = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };
const NOT_FOUND = 'NodePool is not ready (NodeClassNotFound): EC2NodeClass "default" not found';

/** A pod asking for 100m CPU: running on `nodeName`, or marked Unschedulable without one. */
function aPod(name: string, { nodeName }: { nodeName?: string } = {}): JsonObject {
  const containers = [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '100m' } } }];
  const metadata = { name, namespace: 'default', uid: `uid-${name}` };
  if (nodeName !== undefined) {
    return { metadata, spec: { nodeName, containers }, status: { phase: 'Running' } };
  }
  const conditions = [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }];
  return { metadata, spec: { containers }, status: { phase: 'Pending', conditions } };
}

/** The world's only EC2NodeClass deleted, so no class is stored at all; resolves with it. */
async function withoutItsClass(world: PassWorld) {
  const [stored] = await world.state.nodeClasses.list();
  if (stored === undefined) throw new Error('the pass world stores an EC2NodeClass');
  await world.state.nodeClasses.delete(stored.document.metadata.name);
  return stored;
}

/** A second pool, `spare`, like `general` but with a class of its own that is stored. */
async function withAnotherPool(world: PassWorld, nodeClass: EC2NodeClass) {
  const general = await world.state.nodePools.get('general');
  if (general === undefined) throw new Error('the pass world stores NodePool general');
  const { spec } = general.document;
  const nodeClassRef = { ...spec.template.spec.nodeClassRef, name: 'spare' };
  const template = { ...spec.template, spec: { ...spec.template.spec, nodeClassRef } };
  await world.state.nodeClasses.create({ ...nodeClass, metadata: { name: 'spare' } }, 'spare');
  await world.state.nodePools.create(
    { metadata: { name: 'spare' }, spec: { ...spec, template } },
    'spare',
  );
}

describe('a NodePool whose EC2NodeClass is not stored', () => {
  it('launches nothing, even with no class stored at all, and its pods say which class is missing', async () => {
    // Prepare
    const world = await aPassWorld(server(), 10);
    await withoutItsClass(world);

    // Act
    const report = await runControllerPass(world.deps, settings);

    // Assess
    expect(report.launches).toEqual([]);
    expect(world.cloud.launchCalls).toBe(0);
    expect(report.unschedulable).toHaveLength(10);
    for (const pod of report.unschedulable) {
      expect(pod.reasons).toEqual([{ nodePool: 'general', code: 'NotReady', message: NOT_FOUND }]);
    }
    const failed = server()
      .store.list('events', 'shop')
      .filter((e) => e.reason === 'FailedScheduling');
    expect(failed.length).toBeGreaterThan(0);
    for (const event of failed) expect(event.message).toContain('EC2NodeClass "default" not found');
  });

  it('launches at the next pass once the class is stored', async () => {
    // Prepare
    const world = await aPassWorld(server(), 10);
    const nodeClass = await withoutItsClass(world);
    await runControllerPass(world.deps, settings);
    await world.state.nodeClasses.create(nodeClass.document, nodeClass.hash);
    world.clock.moveTo(60);

    // Act
    const report = await runControllerPass(world.deps, settings);

    // Assess
    expect(report.launches.flatMap((l) => l.pods)).toHaveLength(10);
    expect(report.unschedulable).toEqual([]);
    for (const claim of await world.state.nodeClaims.list())
      expect(claim.nodeClass).toBe('default');
  });

  it('keeps its running node, not drifted for want of a catalog, and places pods on it', async () => {
    // Prepare: a node running a pod for two hours, long enough for its catalog to be judged,
    // and another pool, with its class, its pod could move to.
    const world = await aPassWorld(server(), 0);
    const kept = await aRunningClaim(world, server(), 'general-kept');
    const nodeClass = await withoutItsClass(world);
    await withAnotherPool(world, nodeClass.document);
    server().store.create('pods', aPod('running', { nodeName: kept.nodeName ?? '' }));
    world.clock.moveTo(3600);
    const stays = await runControllerPass(world.deps, settings);
    server().store.create('pods', aPod('pending'));
    world.clock.moveTo(3660);

    // Act
    const placed = await runControllerPass(world.deps, settings);

    // Assess
    for (const report of [stays, placed]) {
      expect(report.launches).toEqual([]);
      expect(report.unschedulable).toEqual([]);
    }
    const told = world.decisions.published().filter((d) => d.nodeClaim === 'general-kept');
    expect(told).toEqual([]);
    expect(world.cloud.terminateCalls).toEqual([]);
    const claim = await world.state.nodeClaims.get('general-kept');
    expect(claim).toMatchObject({ phase: kept.phase, instanceId: kept.instanceId });
    expect(claim?.disruption).toBeUndefined();
  });

  it('never launches a claim a stopped pass left Pending with defaults: the claim fails, naming itself and the class', async () => {
    // Prepare
    const world = await aPassWorld(server(), 0);
    const pending = new Date(T0).toISOString();
    await world.state.nodeClaims.create(
      aNewNodeClaim({
        name: 'general-left',
        nodePool: 'general',
        timestamps: { Pending: pending },
      }),
    );
    await withoutItsClass(world);

    // Act
    const report = await runControllerPass(world.deps, settings);

    // Assess
    const reason = 'launching node claim general-left: EC2NodeClass "default" not found';
    expect(world.cloud.launchCalls).toBe(0);
    expect(report.lifecycle).toContainEqual(
      expect.objectContaining({ kind: 'LaunchFailed', claim: 'general-left', reason }),
    );
    expect(world.decisions.published()).toContainEqual(
      expect.objectContaining({ kind: 'LaunchFailed', nodeClaim: 'general-left', reason }),
    );
    expect(await world.state.nodeClaims.get('general-left')).toBeUndefined();
  });
});
