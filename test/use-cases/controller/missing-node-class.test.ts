/**
 * A claim whose EC2NodeClass is not stored is never launched with a class nobody wrote: the
 * launch is refused, naming the claim and the class, and the claim removed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeApiServer,
  startFakeApiServer,
} from '../../../functions/adapters/simulated/api-server/server.ts';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import { aPassWorld, type PassWorld, T0 } from './pass-world.ts';

let server: FakeApiServer;

beforeEach(async () => {
  server = await startFakeApiServer({ namespaces: ['default', 'shop', 'batch'] });
});
afterEach(async () => {
  await server.close();
});

const settings = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };

/** The world's only EC2NodeClass deleted, so no class is stored at all; resolves with it. */
async function withoutItsClass(world: PassWorld) {
  const [stored] = await world.state.nodeClasses.list();
  if (stored === undefined) throw new Error('the pass world stores an EC2NodeClass');
  await world.state.nodeClasses.delete(stored.document.metadata.name);
  return stored;
}

describe('a NodePool whose EC2NodeClass is not stored', () => {
  it('never launches a claim a stopped pass left Pending with defaults: the claim fails, naming itself and the class', async () => {
    // Prepare
    const world = await aPassWorld(server, 0);
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
