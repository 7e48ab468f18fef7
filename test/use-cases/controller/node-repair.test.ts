/**
 * Node auto repair through controller passes against the simulated API server (core:
 * pkg/controllers/node/health/controller.go and suite_test.go): an unhealthy node's claim is
 * deleted at once with its termination deadline now, so nothing waits on its pods, and a pool with too many unhealthy
 * nodes tells `NodeRepairBlocked` instead.
 */
import { describe, expect, it } from 'vitest';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import type { JsonObject } from '../../../simulator/api-server/json.ts';
import {
  aLabelledClaim,
  aPassWorld,
  eventsAbout,
  type PassWorld,
  T0,
  useFakeApiServer,
} from './pass-world.ts';

const server = useFakeApiServer();

const settings = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };

/** The node's Ready condition set to `status` `minutes` before T0, and its annotations added. */
function sicken(
  nodeName: string,
  status: string,
  minutes: number,
  annotations: Record<string, string> = {},
) {
  const node = server().store.get('nodes', nodeName);
  if (node === undefined) throw new Error(`no node ${nodeName}`);
  const lastTransitionTime = new Date(T0 - minutes * 60_000).toISOString();
  server().store.update('nodes', {
    ...node,
    metadata: { ...(node.metadata as JsonObject), annotations },
    status: {
      ...(node.status as JsonObject),
      conditions: [{ type: 'Ready', status, lastTransitionTime }],
    },
  });
}

/** The `general` pool with a budget that allows nothing and a two-hour terminationGracePeriod. */
async function aGuardedPool(world: PassWorld) {
  const stored = await world.state.nodePools.get('general');
  if (stored === undefined) throw new Error('the pass world stores NodePool general');
  const { spec } = stored.document;
  await world.state.nodePools.put({
    document: {
      ...stored.document,
      spec: {
        ...spec,
        template: {
          ...spec.template,
          spec: { ...spec.template.spec, terminationGracePeriod: '2h' },
        },
        disruption: { ...spec.disruption, budgets: [{ nodes: '0' }] },
      },
    },
    hash: 'guarded',
    expectedResourceVersion: stored.resourceVersion,
  });
}

/** A pod on `nodeName` that a PodDisruptionBudget allows no eviction. */
function aGuardedPod(nodeName: string) {
  server().store.create('pods', {
    metadata: { name: 'web-0', namespace: 'default', labels: { app: 'web' } },
    spec: {
      nodeName,
      terminationGracePeriodSeconds: 30,
      containers: [{ name: 'web', image: 'web:1', resources: { requests: { cpu: '100m' } } }],
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  });
  server().store.create('poddisruptionbudgets', {
    metadata: { name: 'web', namespace: 'default' },
    spec: { maxUnavailable: 0, selector: { matchLabels: { app: 'web' } } },
  });
}

describe('repair in a pass', () => {
  it('deletes an unhealthy node’s claim at once and terminates its instance without draining, whatever budgets, do-not-disrupt, PDBs and terminationGracePeriod say', async () => {
    // Prepare
    const world = await aPassWorld(server(), 0);
    await aGuardedPool(world);
    const claim = await aLabelledClaim(world, server(), 'general-sick1');
    const node = claim.nodeName ?? '';
    sicken(node, 'False', 45, { 'karpenter.sh/do-not-disrupt': 'true' });
    aGuardedPod(node);

    // Act: the pass that decides, and the next, which terminates
    await runControllerPass(world.deps, settings);
    const repaired = await world.state.nodeClaims.get(claim.name);
    world.clock.moveTo(10);
    await runControllerPass(world.deps, settings);

    // Assess
    const now = new Date(T0).toISOString();
    expect(repaired?.disruption).toMatchObject({
      reason: 'Unhealthy',
      decidedAt: now,
      terminateBy: now,
    });
    expect(repaired?.disruption?.message).toMatch(
      /^unhealthy: node condition Ready has been False/,
    );
    expect(world.cloud.terminateCalls).toEqual([claim.instanceId]);
    expect(await world.state.nodeClaims.get(claim.name)).toBeUndefined();
  });

  it('tells NodeRepairBlocked once in 15 minutes on each node of a pool with too many unhealthy, and repairs none', async () => {
    // Prepare: both nodes of the pool unhealthy, one allowed
    const world = await aPassWorld(server(), 0);
    const claims = [
      await aLabelledClaim(world, server(), 'general-sick1'),
      await aLabelledClaim(world, server(), 'general-sick2'),
    ];
    for (const c of claims) sicken(c.nodeName ?? '', 'Unknown', 45);

    // Act: a pass, another a minute later, and one past the 15 minutes
    await runControllerPass(world.deps, settings);
    world.clock.moveTo(60);
    await runControllerPass(world.deps, settings);
    const withinWindow = claims.map((c) =>
      eventsAbout(server(), c.nodeName ?? '', 'NodeRepairBlocked'),
    );
    world.clock.moveTo(16 * 60);
    await runControllerPass(world.deps, settings);

    // Assess
    const message = 'more than 20% nodes are unhealthy in the nodepool';
    expect(withinWindow).toEqual([
      [expect.objectContaining({ type: 'Warning', message })],
      [expect.objectContaining({ type: 'Warning', message })],
    ]);
    for (const c of claims) {
      expect(eventsAbout(server(), c.nodeName ?? '', 'NodeRepairBlocked')).toHaveLength(2);
      expect((await world.state.nodeClaims.get(c.name))?.disruption).toBeUndefined();
    }
  });
});
