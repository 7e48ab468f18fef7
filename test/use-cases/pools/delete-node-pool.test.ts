/**
 * Deleting a NodePool never strands its instances: the API marks the claims before it deletes
 * the pool, and the controller drains and terminates any claim whose pool is gone — one written
 * while the delete ran, or one the API never marked because it died half-way.
 */
import { describe, expect, it, vi } from 'vitest';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import { deleteNodePool } from '../../../functions/use-cases/pools/delete-documents.ts';
import { aPassWorld, aRunningClaim, T0, useFakeApiServer } from '../controller/pass-world.ts';

const server = useFakeApiServer();

const settings = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };
const now = new Date(T0);

describe('deleting a NodePool', () => {
  it('marks its claims for deletion before it deletes the pool', async () => {
    const world = await aPassWorld(server(), 0);
    await aRunningClaim(world, server(), 'general-one');
    const calls: string[] = [];
    const { nodeClaims, nodePools } = world.state;
    const update = nodeClaims.update.bind(nodeClaims);
    const remove = nodePools.delete.bind(nodePools);
    vi.spyOn(nodeClaims, 'update').mockImplementation(async (claim, options) => {
      calls.push(`mark ${claim.name}`);
      return update(claim, options);
    });
    vi.spyOn(nodePools, 'delete').mockImplementation(async (name, version) => {
      calls.push(`delete ${name}`);
      return remove(name, version);
    });
    expect(await deleteNodePool(world.state, 'general', now)).toEqual(['general-one']);
    expect(calls).toEqual(['mark general-one', 'delete general']);
  });

  it('strands no claim when the call dies right after the pool is deleted', async () => {
    // Prepare
    const world = await aPassWorld(server(), 0);
    await aRunningClaim(world, server(), 'general-one');
    await aRunningClaim(world, server(), 'general-two');
    const { nodePools } = world.state;
    const remove = nodePools.delete.bind(nodePools);
    vi.spyOn(nodePools, 'delete').mockImplementationOnce(async (name, version) => {
      await remove(name, version);
      throw new Error('Runtime exited with error: signal: killed');
    });
    // Act
    await expect(deleteNodePool(world.state, 'general', now)).rejects.toThrow(/killed/);
    await runControllerPass(world.deps, settings);
    world.clock.moveTo(30);
    await runControllerPass(world.deps, settings);
    // Assess
    expect(await world.state.nodePools.get('general')).toBeUndefined();
    expect(await world.state.nodeClaims.listByPool('general')).toEqual([]);
    expect(world.cloud.alsoListed).toEqual([]);
  });

  it('drains and terminates a claim a pass wrote while the pool was being deleted', async () => {
    // Prepare: a pass writes a claim after the API listed the pool's claims.
    const world = await aPassWorld(server(), 0);
    await aRunningClaim(world, server(), 'general-one');
    const { nodeClaims } = world.state;
    const listByPool = nodeClaims.listByPool.bind(nodeClaims);
    vi.spyOn(nodeClaims, 'listByPool').mockImplementationOnce(async (pool) => {
      const listed = await listByPool(pool);
      await aRunningClaim(world, server(), 'general-late');
      return listed;
    });
    // Act
    const marked = await deleteNodePool(world.state, 'general', now);
    const late = await world.state.nodeClaims.get('general-late');
    const first = await runControllerPass(world.deps, settings);
    world.clock.moveTo(30);
    await runControllerPass(world.deps, settings);
    // Assess
    expect(marked).toEqual(['general-one']);
    expect(late?.phase).toBe('Initialized');
    expect(first.lifecycle).toContainEqual(
      expect.objectContaining({
        kind: 'Disrupting',
        claim: 'general-late',
        reason: 'NodePoolDeleted: NodePool general no longer exists',
      }),
    );
    expect(await world.state.nodeClaims.list()).toEqual([]);
    expect(world.cloud.alsoListed).toEqual([]);
  });
});
