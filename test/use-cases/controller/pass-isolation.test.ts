/**
 * One claim's failure stays that claim's: the pass tells it, backs the claim off on its record,
 * and goes on with the rest; what is not the claim's (the state store) still ends the pass.
 */
import { describe, expect, it, vi } from 'vitest';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import { aPassWorld, aRunningClaim, T0, useFakeApiServer } from './pass-world.ts';

const server = useFakeApiServer();

const settings = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

describe('a claim whose action keeps failing', () => {
  it('does not keep 40 pending pods from their claims, and is tried again only after its backoff', async () => {
    // Prepare: a claim whose node never registered, whose TerminateInstances is refused.
    const world = await aPassWorld(server(), 40);
    const stuck = await aRunningClaim(world, server(), 'general-stuck', { joined: false });
    world.cloud.refused.add(stuck.instanceId ?? '');
    const attempts = () => world.cloud.terminateCalls.filter((id) => id === stuck.instanceId);
    // Act
    const first = await runControllerPass(world.deps, settings);
    world.clock.moveTo(5);
    const early = await runControllerPass(world.deps, settings);
    world.clock.moveTo(11);
    const due = await runControllerPass(world.deps, settings);
    // Assess
    expect(first.launches.flatMap((l) => l.pods)).toHaveLength(40);
    expect(first.claimFailures).toEqual([
      expect.objectContaining({
        action: 'Remove',
        claim: 'general-stuck',
        attempts: 1,
        retryAt: at(10),
        message: expect.stringContaining('UnauthorizedOperation'),
      }),
    ]);
    expect(early.claimFailures).toEqual([]);
    expect(due.claimFailures).toEqual([
      expect.objectContaining({ claim: 'general-stuck', attempts: 2, retryAt: at(31) }),
    ]);
    expect(attempts()).toHaveLength(2);
    expect((await world.state.nodeClaims.get('general-stuck'))?.failure).toMatchObject({
      action: 'Remove',
      attempts: 2,
      retryAt: at(31),
    });
  });

  it('tells a refused eviction on the node and backs that claim off, while the other node drains', async () => {
    // Prepare: two nodes draining, one pod each; evictions of the first pod answer 403.
    const world = await aPassWorld(server(), 0);
    const disruption = { reason: 'Underutilized', message: 'underused', decidedAt: at(-60) };
    const refused = await aRunningClaim(world, server(), 'general-refused', { disruption });
    const drains = await aRunningClaim(world, server(), 'general-drains', { disruption });
    for (const [name, claim] of [
      ['web-refused', refused],
      ['web-drains', drains],
    ] as const) {
      server().store.create('pods', {
        metadata: { name, namespace: 'default' },
        spec: { nodeName: claim.nodeName ?? '', containers: [{ name: 'app', image: 'nginx' }] },
        status: { phase: 'Running' },
      });
    }
    await world.state.nodeClaims.update({ ...refused, phase: 'Disrupting' });
    await world.state.nodeClaims.update({ ...drains, phase: 'Disrupting' });
    server().faults.inject({
      method: 'POST',
      path: '/api/v1/namespaces/default/pods/web-refused/eviction',
      status: 403,
      message: 'pods "web-refused" is forbidden: eviction denied by policy',
      times: 100,
    });
    // Act
    const report = await runControllerPass(world.deps, settings);
    // Assess
    expect(report.claimFailures).toEqual([
      expect.objectContaining({
        action: 'StartDrain',
        claim: 'general-refused',
        nodeName: refused.nodeName,
        attempts: 1,
      }),
    ]);
    // Evicted: the pod is terminating on its grace period.
    expect(server().store.get('pods', 'web-drains', 'default')?.metadata).toHaveProperty(
      'deletionTimestamp',
    );
    expect(server().store.get('pods', 'web-refused', 'default')?.metadata).not.toHaveProperty(
      'deletionTimestamp',
    );
    const warnings = server()
      .store.list('events', 'default')
      .filter((e) => e.reason === 'FailedStartDrain');
    expect(warnings).toEqual([
      expect.objectContaining({
        type: 'Warning',
        involvedObject: expect.objectContaining({ kind: 'Node', name: refused.nodeName }),
      }),
    ]);
    expect((await world.state.nodeClaims.get('general-drains'))?.phase).toBe('Draining');
  });

  it('registers the other nodes when an admission webhook refuses to patch one', async () => {
    // Prepare: two nodes joined; patches of the first are denied by a webhook.
    const world = await aPassWorld(server(), 0);
    const joined = {
      phase: 'Launched' as const,
      timestamps: { Pending: at(-600), Launched: at(-600) },
    };
    const refused = await aRunningClaim(world, server(), 'general-webhook', joined);
    await aRunningClaim(world, server(), 'general-fine', joined);
    server().faults.inject({
      method: 'PATCH',
      path: `/api/v1/nodes/${refused.nodeName}`,
      status: 400,
      message: 'admission webhook "nodes.policy.example.com" denied the request: label not allowed',
      times: 100,
    });
    // Act
    const report = await runControllerPass(world.deps, settings);
    // Assess
    expect(report.claimFailures).toEqual([
      expect.objectContaining({
        action: 'Register',
        claim: 'general-webhook',
        nodeName: refused.nodeName,
        message: expect.stringContaining('denied the request'),
      }),
    ]);
    expect((await world.state.nodeClaims.get('general-fine'))?.phase).toBe('Registered');
    expect((await world.state.nodeClaims.get('general-webhook'))?.phase).toBe('Launched');
  });

  it('still ends the pass when the state store cannot record the failure', async () => {
    const world = await aPassWorld(server(), 40);
    const stuck = await aRunningClaim(world, server(), 'general-stuck', { joined: false });
    world.cloud.refused.add(stuck.instanceId ?? '');
    vi.spyOn(world.state.nodeClaims, 'get').mockRejectedValue(
      new Error('reading node claim general-stuck: connect ECONNREFUSED'),
    );
    await expect(runControllerPass(world.deps, settings)).rejects.toThrow(/ECONNREFUSED/);
    expect(world.cloud.terminateCalls).toEqual([stuck.instanceId]);
  });
});
