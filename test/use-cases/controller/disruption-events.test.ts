/**
 * The disruption Events Karpenter users alert on, as a pass writes them to the cluster, with
 * Karpenter's reasons and messages (core: disruption/events/events.go, consolidation.go,
 * emptiness.go, queue.go, node/termination/controller.go, nodeclaim/lifecycle/events.go).
 */
import { describe, expect, it } from 'vitest';
import type { NodePool } from '../../../functions/domain/node-pool.ts';
import { NodeClassNotReadyError } from '../../../functions/ports/errors.ts';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { titleCase } from '../../../functions/use-cases/controller/disruption-events.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import type { JsonObject } from '../../../simulator/api-server/json.ts';
import {
  aLabelledClaim,
  aPassWorld,
  aRunningClaim,
  eventsAbout,
  type PassWorld,
  T0,
  useFakeApiServer,
} from './pass-world.ts';

const server = useFakeApiServer();

const settings = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };

/** A pod asking for 100m CPU, running on `nodeName` for an hour. */
function aRunningPod(name: string, nodeName: string): JsonObject {
  const containers = [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '100m' } } }];
  const creationTimestamp = new Date(T0 - 3_600_000).toISOString();
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}`, creationTimestamp },
    spec: { nodeName, containers },
    status: { phase: 'Running' },
  };
}

/** The `general` pool's disruption block replaced. */
async function withDisruption(world: PassWorld, disruption: NodePool['spec']['disruption']) {
  const stored = await world.state.nodePools.get('general');
  if (stored === undefined) throw new Error('the pass world stores NodePool general');
  await world.state.nodePools.put({
    document: { ...stored.document, spec: { ...stored.document.spec, disruption } },
    hash: 'changed',
    expectedResourceVersion: stored.resourceVersion,
  });
}

/** The events the simulated API server holds for one object, by reason. */
function eventsOn(name: string, reason: string, namespaces: readonly string[] = ['default']) {
  return eventsAbout(server(), name, reason, namespaces);
}

/** A running claim whose node carries its offering's labels, so not drifted. */
function aLabelledRunningClaim(world: PassWorld, name: string) {
  return aLabelledClaim(world, server(), name);
}

describe('Unconsolidatable', () => {
  it.each([
    {
      name: 'a WhenEmpty pool and a node running a pod',
      disruption: { consolidationPolicy: 'WhenEmpty' as const, consolidateAfter: '1m' },
      pods: 1,
      message: 'NodePool "general" has consolidation policy WhenEmpty, but node is not empty',
    },
    {
      name: 'consolidateAfter Never and a node running a pod',
      disruption: { consolidationPolicy: 'WhenEmpty' as const, consolidateAfter: 'Never' },
      pods: 1,
      message: 'NodePool "general" has consolidation disabled',
    },
    {
      name: 'consolidateAfter Never and an empty node',
      disruption: { consolidateAfter: 'Never' },
      pods: 0,
      message: 'NodePool "general" has consolidation disabled',
    },
  ])('is told once in 15 minutes on the node, for $name', async ({ disruption, pods, message }) => {
    // Prepare
    const world = await aPassWorld(server(), 0);
    await withDisruption(world, disruption);
    const claim = await aLabelledRunningClaim(world, 'general-kept1');
    const node = claim.nodeName ?? '';
    for (let i = 0; i < pods; i++) server().store.create('pods', aRunningPod(`web-${i}`, node));

    // Act: a pass, another a minute later, and one past the 15 minutes
    await runControllerPass(world.deps, settings);
    world.clock.moveTo(60);
    await runControllerPass(world.deps, settings);
    const withinWindow = eventsOn(node, 'Unconsolidatable');
    world.clock.moveTo(16 * 60);
    await runControllerPass(world.deps, settings);

    // Assess
    expect(withinWindow).toEqual([expect.objectContaining({ type: 'Normal', message })]);
    expect(eventsOn(node, 'Unconsolidatable')).toHaveLength(2);
  });
});

describe('DisruptionLaunching and DisruptionWaitingReadiness', () => {
  it('are told on the disrupted node while its replacement is not initialized', async () => {
    // Prepare: a drifted node whose replacement launched a minute ago and has not registered
    const world = await aPassWorld(server(), 0);
    const launched = new Date(T0 - 60_000).toISOString();
    await aRunningClaim(world, server(), 'general-new01', {
      joined: false,
      timestamps: { Pending: launched, Launched: launched },
    });
    const old = await aRunningClaim(world, server(), 'general-old01', {
      disruption: {
        reason: 'Drifted',
        message: 'drifted: its NodePool changed',
        decidedAt: launched,
        stage: 'Replacing',
        method: 'drift',
        replacements: ['general-new01'],
      },
    });
    const node = old.nodeName ?? '';

    // Act
    await runControllerPass(world.deps, settings);

    // Assess
    expect(eventsOn(node, 'DisruptionLaunching')).toEqual([
      expect.objectContaining({ type: 'Normal', message: 'Launching NodeClaim: Drifted' }),
    ]);
    expect(eventsOn(node, 'DisruptionWaitingReadiness')).toEqual([
      expect.objectContaining({
        type: 'Normal',
        message: 'Waiting on readiness to continue disruption',
      }),
    ]);
  });

  it.each([
    { reason: 'Underutilized', titled: 'Underutilized' },
    { reason: 'drifted', titled: 'Drifted' },
    { reason: 'spot interrupted', titled: 'Spot Interrupted' },
    { reason: 'SpotToSpot', titled: 'SpotToSpot' },
  ])('title the reason as cases.Title with NoLower does: $reason', ({ reason, titled }) => {
    // Act
    const text = titleCase(reason);

    // Assess
    expect(text).toBe(titled);
  });
});

describe('TerminationGracePeriodExpiring', () => {
  it('warns on the node, when its drain starts, of the time all its pods will be deleted', async () => {
    // Prepare: two claims marked for deletion, one with a terminationGracePeriod's deadline
    const world = await aPassWorld(server(), 0);
    const decidedAt = new Date(T0 - 60_000).toISOString();
    const terminateBy = new Date(T0 + 3_600_000).toISOString();
    const graced = await aRunningClaim(world, server(), 'general-grace', {
      phase: 'Disrupting',
      disruption: { reason: 'Drifted', message: 'drifted', decidedAt, terminateBy },
    });
    const plain = await aRunningClaim(world, server(), 'general-plain', {
      phase: 'Disrupting',
      disruption: { reason: 'Drifted', message: 'drifted', decidedAt },
    });

    // Act
    await runControllerPass(world.deps, settings);

    // Assess
    expect(eventsOn(graced.nodeName ?? '', 'TerminationGracePeriodExpiring')).toEqual([
      expect.objectContaining({
        type: 'Warning',
        message: 'All pods will be deleted by 2026-11-24T10:00:00Z',
      }),
    ]);
    expect(eventsOn(plain.nodeName ?? '', 'TerminationGracePeriodExpiring')).toEqual([]);
    expect(eventsOn(plain.nodeName ?? '', 'Draining')).toHaveLength(1);
  });
});

describe('NodeClassNotReady', () => {
  it('warns on the pods a claim was for when its EC2NodeClass cannot be resolved at launch', async () => {
    // Prepare: the cloud finds no subnet for the class, as the EC2 adapter reports it
    const world = await aPassWorld(server(), 3);
    const error = 'resolving ec2nodeclass default: no subnets match its selector terms';
    world.cloud.launch = async () => {
      throw new NodeClassNotReadyError(error);
    };

    // Act
    const report = await runControllerPass(world.deps, settings);

    // Assess
    expect(report.failures.length).toBeGreaterThan(0);
    for (const failure of report.failures) {
      expect(failure).toMatchObject({ nodeClassNotReady: true, reason: error });
      for (const pod of failure.pods) {
        const [namespace = '', name = ''] = pod.split('/');
        expect(eventsOn(name, 'NodeClassNotReady', [namespace])).toEqual([
          expect.objectContaining({
            type: 'Warning',
            message: `NodeClaim ${failure.claim} event: ${error}`,
          }),
        ]);
      }
    }
  });
});

describe('ConsolidationApproved', () => {
  it.each([
    { policy: 'Balanced' as const, told: 1 },
    { policy: 'WhenEmptyOrUnderutilized' as const, told: 0 },
  ])('is told with the score on the node a $policy pool gives up', async ({ policy, told }) => {
    // Prepare: two nodes, one pod each, either able to take the other's
    const world = await aPassWorld(server(), 0);
    const budgets = [{ nodes: '100%' }];
    await withDisruption(world, { consolidationPolicy: policy, consolidateAfter: '0s', budgets });
    const claims = [
      await aLabelledRunningClaim(world, 'general-one01'),
      await aLabelledRunningClaim(world, 'general-two02'),
    ];
    const nodes = claims.map((c) => c.nodeName ?? '');
    for (const [i, node] of nodes.entries())
      server().store.create('pods', aRunningPod(`web-${i}`, node));

    // Act
    const report = await runControllerPass(world.deps, settings);

    // Assess
    const validating = report.lifecycle.filter((r) => r.kind === 'Validating');
    expect(validating.length).toBeGreaterThan(0);
    const approved = nodes.flatMap((node) => eventsOn(node, 'ConsolidationApproved'));
    expect(approved).toHaveLength(told * validating.length);
    for (const event of approved)
      expect(event.message).toMatch(
        /^score \d+\.\d\d >= threshold 0\.50 \(k: 2, savings \d+\.\d%, disruption \d+\.\d%\)$/,
      );
  });
});
