/**
 * A pool's disruption budget when EC2 reclaims some of its nodes, pass by pass (docs/disruption.md,
 * "Budgets"): the nodes the interruption function marks are not held back by the budget, but
 * they use it up — a command waiting out its 15 s is dropped when they leave it no room (core:
 * disruption/validation.go validateCandidates, helpers.go BuildDisruptionBudgetMapping) — while
 * a command already under way finishes once its replacement is Initialized, whatever the
 * interruption left of the budget (core: disruption/queue.go waitOrTerminate).
 */
import { describe, expect, it } from 'vitest';
import { isGoing } from '../../../functions/domain/lifecycle/claim-deletion.ts';
import type { NodeClaimRecord } from '../../../functions/domain/state/node-claim-record.ts';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import { handleInterruption } from '../../../functions/use-cases/interruption/handle-interruption.ts';
import { aLabelledClaim, aPassWorld, type PassWorld, T0, useFakeApiServer } from './pass-world.ts';

const server = useFakeApiServer();

const settings = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };

/** `count` empty nodes of `general` (no budgets, so `nodes: 10%`), running for an hour. */
async function emptyNodes(world: PassWorld, count: number): Promise<Map<string, NodeClaimRecord>> {
  const claims = new Map<string, NodeClaimRecord>();
  for (let i = 1; i <= count; i++) {
    const claim = await aLabelledClaim(world, server(), `general-n${String(i).padStart(2, '0')}`);
    claims.set(claim.name, claim);
  }
  return claims;
}

function named(claims: ReadonlyMap<string, NodeClaimRecord>, name: string): NodeClaimRecord {
  const claim = claims.get(name);
  if (claim === undefined) throw new Error(`no claim ${name}`);
  return claim;
}

/** EC2's two-minute warning for the claims' instances, as the interruption queue delivers it. */
async function reclaim(world: PassWorld, claims: readonly NodeClaimRecord[]): Promise<void> {
  const { state, waker, clock } = world;
  const now = clock.now();
  await handleInterruption(
    { state, cluster: world.deps.cluster, waker, clock },
    {
      id: '1e5527d7-bb36-4607-3370-4164db56a40e',
      time: now.toISOString(),
      kind: 'SpotInterruption',
      instanceIds: claims.map((c) => c.instanceId ?? ''),
    },
  );
}

async function claimsNow(world: PassWorld): Promise<Map<string, NodeClaimRecord>> {
  return new Map((await world.state.nodeClaims.list()).map((c) => [c.name, c]));
}

const CANDIDATES = ['general-n06', 'general-n11'];

function takenFor(claims: ReadonlyMap<string, NodeClaimRecord>, reason: string): string[] {
  return [...claims.values()]
    .filter((c) => c.disruption?.reason === reason)
    .map((c) => c.name)
    .sort();
}

describe('a disruption budget while EC2 reclaims spot nodes', () => {
  it('lets a two-node replacement already under way finish though the interruption used the budget up', async () => {
    // Prepare: 12 nodes, 2 being replaced by the 12th under 10% of 11, then 2 others reclaimed
    const world = await aPassWorld(server(), 0);
    const nodes = await emptyNodes(world, 12);
    const disruption = {
      reason: 'Underutilized',
      message: 'consolidating 2 nodes into 1',
      decidedAt: new Date(T0 - 60_000).toISOString(),
      stage: 'Replacing' as const,
      method: 'consolidation-multi',
      replacements: ['general-n12'],
    };
    for (const name of CANDIDATES)
      await world.state.nodeClaims.update({ ...named(nodes, name), disruption });
    await reclaim(world, [named(nodes, 'general-n01'), named(nodes, 'general-n02')]);

    // Act
    await runControllerPass(world.deps, settings);

    // Assess: the candidates go; the empty nodes stay, the budget spent on the four going
    const claims = await claimsNow(world);
    expect(takenFor(claims, 'Underutilized')).toEqual(CANDIDATES);
    for (const name of CANDIDATES) expect(isGoing(named(claims, name)), name).toBe(true);
    expect(takenFor(claims, 'SpotInterrupted')).toEqual(['general-n01', 'general-n02']);
    expect(takenFor(claims, 'Empty')).toEqual([]);
  });

  it.each([
    { name: 'goes ahead with nothing reclaimed', reclaimed: 0, taken: 2 },
    { name: 'is dropped when two of the 11 nodes were reclaimed', reclaimed: 2, taken: 0 },
  ])(
    'an emptiness command of two nodes checked again 15 s on $name',
    async ({ reclaimed, taken }) => {
      // Prepare: a minute after the nodes are first seen empty (consolidateAfter: 1m), emptiness
      // decides within 10% of 11; then EC2 reclaims other nodes
      const world = await aPassWorld(server(), 0);
      await emptyNodes(world, 11);
      await runControllerPass(world.deps, settings);
      world.clock.moveTo(60);
      await runControllerPass(world.deps, settings);
      const decided = [...(await claimsNow(world)).values()];
      const validating = decided.filter((c) => c.disruption?.stage === 'Validating');
      const others = decided.filter((c) => c.disruption === undefined);
      await reclaim(world, others.slice(0, reclaimed));

      // Act
      world.clock.moveTo(75);
      await runControllerPass(world.deps, settings);

      // Assess
      const claims = await claimsNow(world);
      expect(validating).toHaveLength(2);
      const empty = takenFor(claims, 'Empty');
      expect(empty).toHaveLength(taken);
      for (const name of empty) {
        expect(validating.map((c) => c.name)).toContain(name);
        expect(isGoing(named(claims, name)), name).toBe(true);
      }
    },
  );
});
