/**
 * The lease outlives the pass: it is taken for the invocation's whole timeout, and the pass asks
 * whether it still holds it before each call no DynamoDB condition can undo.
 */
import { describe, expect, it } from 'vitest';
import type { LeaseGrant } from '../../../functions/domain/state/lease.ts';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { LeaseLostError } from '../../../functions/use-cases/controller/lease-guard.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import { aPassWorld, aRunningClaim, type PassWorld, T0, useFakeApiServer } from './pass-world.ts';

const server = useFakeApiServer();

const settings = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1', timeoutMs: 180_000 };

/** Two claims whose instances are to be terminated (their nodes are gone already). */
async function twoTerminating(world: PassWorld) {
  const disruption = {
    reason: 'Expired',
    message: 'expired',
    decidedAt: new Date(T0).toISOString(),
  };
  for (const name of ['general-first', 'general-second']) {
    await aRunningClaim(world, server(), name, { joined: false, phase: 'Terminating', disruption });
  }
}

describe('the lease of a pass', () => {
  it("is held for the function's whole timeout, so nobody takes it while the pass still acts", async () => {
    // Prepare
    const world = await aPassWorld(server(), 0);
    await twoTerminating(world);
    const takers: (LeaseGrant | undefined)[] = [];
    world.cloud.onTerminate = async () => {
      takers.push(await world.state.lease.acquire('next-pass', new Date(T0 + 170_000), 60));
    };
    // Act
    await runControllerPass(world.deps, settings);
    // Assess
    expect(world.cloud.terminateCalls).toHaveLength(2);
    expect(takers).toEqual([undefined, undefined]);
  });

  it('stops before terminating another instance once the lease was lost', async () => {
    // Prepare: the pass pauses past its lease during the first termination; another pass takes over.
    const world = await aPassWorld(server(), 0);
    await twoTerminating(world);
    world.cloud.onTerminate = async () => {
      await world.state.lease.acquire('next-pass', new Date(T0 + 600_000), 60);
    };
    // Act
    const pass = runControllerPass(world.deps, settings);
    // Assess
    await expect(pass).rejects.toBeInstanceOf(LeaseLostError);
    expect(world.cloud.terminateCalls).toHaveLength(1);
  });
});
