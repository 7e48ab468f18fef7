/**
 * One controller pass on its own, through its ports: the lease decides who works, the time box
 * stops scheduling and asks for the next pass at once, and decisions and events tell what it did.
 */
import { describe, expect, it } from 'vitest';
import { nodeClassHash } from '../../../functions/domain/disruption/node-class-hash.ts';
import { templateHash } from '../../../functions/domain/disruption/template-hash.ts';
import { clusterLimits } from '../../../functions/domain/limits/cluster-limits.ts';
import { HOURLY_COST } from '../../../functions/domain/limits/hourly-cost.ts';
import type { CloudProvider } from '../../../functions/ports/cloud-provider.ts';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import { passMetrics } from '../../../functions/use-cases/controller/pass-metrics.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import { aPassWorld, T0, useFakeApiServer } from './pass-world.ts';

const server = useFakeApiServer();

describe('a controller pass', () => {
  it('launches for every Unschedulable pod, publishes each launch, and comes back while claims are in flight', async () => {
    const { deps, waker, decisions } = await aPassWorld(server(), 40);
    const report = await runControllerPass(deps, { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' });
    expect(report.ran).toBe(true);
    expect(report.provisionablePods).toBe(40);
    expect(report.launches.flatMap((l) => l.pods)).toHaveLength(40);
    expect(decisions.published().map((d) => d.kind)).toEqual(report.launches.map(() => 'Launched'));
    expect(waker.queued).toEqual([
      {
        wake: { source: 'controller', reason: `${report.launches.length} node claims in flight` },
        delaySeconds: 10,
      },
    ]);
    const nominated = server()
      .store.list('events', 'shop')
      .filter((e) => e.reason === 'Nominated');
    expect(nominated.length).toBeGreaterThan(0);
  });

  it('names a claim again when the generated name is taken, and launches every claim', async () => {
    // Prepare: the second and third names drawn are the first one again.
    const world = await aPassWorld(server(), 40);
    let n = 0;
    const drawn: string[] = [];
    const deps = {
      ...world.deps,
      newClaimName: (pool: string) => {
        n += 1;
        drawn.push(`${pool}-${String(n === 2 || n === 3 ? 1 : n).padStart(5, '0')}`);
        return drawn.at(-1) ?? '';
      },
    };
    // Act
    const report = await runControllerPass(deps, { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' });
    // Assess
    const claims = await world.state.nodeClaims.list();
    expect(report.launches.flatMap((l) => l.pods)).toHaveLength(40);
    expect(drawn.slice(0, 3)).toEqual(['general-00001', 'general-00001', 'general-00001']);
    expect(claims.map((c) => c.name).sort()).toEqual(
      report.launches.map((l) => l.claim.name).sort(),
    );
    expect(new Set(claims.map((c) => c.instanceId)).size).toBe(claims.length);
  });

  it('reports its launches as Karpenter counts them: claims created for pending pods, conditions Launched', async () => {
    // Prepare
    const { deps } = await aPassWorld(server(), 40);
    // Act
    const report = await runControllerPass(deps, { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' });
    // Assess
    expect(report.decisions.map((d) => [d.kind, d.createdFor])).toEqual(
      report.launches.map(() => ['Launched', 'provisioned']),
    );
    const counts = Object.fromEntries(
      passMetrics(report).map((s) => [`${s.name} ${s.labels.reason}`, s.value]),
    );
    expect(counts).toEqual({
      'karpenter_nodeclaims_created_total provisioned': report.launches.length,
      'operator_nodeclaim_status_condition_transitions_total Launched': report.launches.length,
    });
  });

  it('stamps each claim with the NodePool and EC2NodeClass hashes static drift compares, and the template’s annotations', async () => {
    const { deps, state } = await aPassWorld(server(), 10);
    await runControllerPass(deps, { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' });
    const [pool] = await state.nodePools.list();
    const [nodeClass] = await state.nodeClasses.list();
    const claims = await state.nodeClaims.list();
    expect(claims.length).toBeGreaterThan(0);
    for (const claim of claims) {
      expect(claim.nodePoolHash).toEqual(pool && templateHash(pool.document));
      expect(claim.nodeClassHash).toEqual(nodeClass && nodeClassHash(nodeClass.document));
      expect(claim.annotations).toEqual({
        'example.com/runbook': 'https://runbooks.example.com/general',
      });
    }
  });

  it('keeps a disruption that ended for a day, for the status', async () => {
    const { deps, state } = await aPassWorld(server(), 0);
    const decidedAt = new Date(T0 - 60_000).toISOString();
    await state.nodeClaims.create({
      ...aNewNodeClaim({
        name: 'general-gone1',
        nodePool: 'general',
        phase: 'Disrupting',
        instanceId: 'i-0000000000000dead',
      }),
      disruption: { reason: 'Underutilized', message: 'underused: deleted', decidedAt },
    });
    const report = await runControllerPass(deps, { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' });
    expect(report.lifecycle.map((r) => r.kind)).toContain('Terminated');
    expect(await state.nodeClaims.get('general-gone1')).toBeUndefined();
    const ended = await state.pastDisruptions.listRecent(new Date(T0));
    expect(ended).toEqual([
      expect.objectContaining({
        nodeClaim: 'general-gone1',
        nodePool: 'general',
        reason: 'Underutilized',
        decidedAt,
      }),
    ]);
    expect(await state.pastDisruptions.listRecent(new Date(T0 + 25 * 3_600_000))).toEqual([]);
  });

  it('checks pool limits again against the claims the store holds now', async () => {
    const { deps, state } = await aPassWorld(server(), 20);
    const [stored] = await state.nodePools.list();
    if (stored === undefined) throw new Error('setting up: no pool');
    const limited = {
      ...stored.document,
      spec: { ...stored.document.spec, limits: { nodes: '3' } },
    };
    await state.nodePools.put({
      document: limited,
      hash: 'limited',
      expectedResourceVersion: stored.resourceVersion,
    });
    // Claims the snapshot did not see: written after it, as if by a pass before the lease moved.
    const foreign = ['general-zz001', 'general-zz002'].map((name) => ({
      ...aNewNodeClaim({ name, nodePool: 'general' }),
      version: 1,
    }));
    const claims = deps.state.nodeClaims;
    const withForeign = {
      ...deps.state,
      nodeClaims: Object.assign(Object.create(claims) as typeof claims, {
        listByPool: async (pool: string) => [...(await claims.listByPool(pool)), ...foreign],
        create: claims.create.bind(claims),
        update: claims.update.bind(claims),
        delete: claims.delete.bind(claims),
        list: claims.list.bind(claims),
      }),
    };
    const report = await runControllerPass(
      { ...deps, state: withForeign },
      { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' },
    );
    expect(report.launches).toHaveLength(1);
    const refused = report.unschedulable.filter(
      (u) => u.reason === 'NodePool general would exceed its nodes limit: 3 of 3 used',
    );
    expect(refused.length).toBeGreaterThan(0);
    expect(report.unschedulable.length + (report.launches[0]?.pods.length ?? 0)).toBe(20);
  });

  it('counts every pool against the cluster limits stored in the state', async () => {
    // Prepare
    const { deps, state } = await aPassWorld(server(), 20);
    await state.clusterLimits.create(clusterLimits({ nodes: '2' }), 'limits');

    // Act
    const report = await runControllerPass(deps, { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' });

    // Assess: the cluster has no node yet, so the limit lets two claims launch and no more; the
    // pods they do not hold wait, each refused by the cluster's limit
    expect(report.launches).toHaveLength(2);
    expect(report.unschedulable.length + report.launches.flatMap((l) => l.pods).length).toBe(20);
    expect(new Set(report.unschedulable.map((u) => u.reason))).toEqual(
      new Set(['The cluster would exceed its nodes limit: 2 of 2 used']),
    );
  });

  it('tells once, on the bus and in the report, the moment a limit starts refusing', async () => {
    // Prepare
    const { deps, decisions, state } = await aPassWorld(server(), 20);
    await state.clusterLimits.create(clusterLimits({ nodes: '1' }), 'limits');
    const settings = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };

    // Act: two passes refuse, then the limit is lifted and nothing is refused
    const first = await runControllerPass(deps, settings);
    const second = await runControllerPass(deps, settings);
    const stored = await state.clusterLimits.get('cluster');
    await state.clusterLimits.put({
      document: clusterLimits({ nodes: '1000' }),
      hash: 'lifted',
      expectedResourceVersion: stored?.resourceVersion ?? 0,
    });
    await runControllerPass(deps, settings);

    // Assess
    expect(first.limitsReached).toEqual([
      expect.objectContaining({
        kind: 'LimitReached',
        limit: 'nodes',
        message: 'The cluster would exceed its nodes limit: 1 of 1 used',
      }),
    ]);
    expect(first.limitsReached[0]?.pods).toBeGreaterThan(0);
    expect(second.limitsReached).toEqual([]);
    expect(decisions.limitsReached()).toHaveLength(1);
    expect(await state.refusingLimits.list()).toEqual([]);
  });

  it("starts from the deployment's limits until limits are stored, which then win", async () => {
    // Prepare
    const { deps, state } = await aPassWorld(server(), 20);
    const settings = {
      ...DEFAULT_PASS_SETTINGS,
      region: 'us-east-1',
      startingLimits: clusterLimits({ [HOURLY_COST]: '0' }),
    };

    // Act
    const first = await runControllerPass(deps, settings);
    await state.clusterLimits.create(clusterLimits({ nodes: '1' }), 'limits');
    const second = await runControllerPass(deps, settings);

    // Assess
    expect(first.launches).toEqual([]);
    expect(first.unschedulable[0]?.reason).toMatch(
      /^The cluster would exceed its hourly cost limit/,
    );
    expect(second.launches).toHaveLength(1);
  });

  it('lets a replacement for an interrupted node launch at a limit, and says so', async () => {
    // Prepare: the one node the limit allows is being reclaimed
    const { deps, decisions, state } = await aPassWorld(server(), 1);
    await state.clusterLimits.create(clusterLimits({ nodes: '1' }), 'limits');
    await state.nodeClaims.create({
      ...aNewNodeClaim({ name: 'general-zz001', nodePool: 'general' }),
      instanceId: 'i-0123456789abcdef0',
      phase: 'Initialized',
      disruption: {
        reason: 'SpotInterrupted',
        message: 'spot interruption warning',
        decidedAt: new Date(T0).toISOString(),
      },
    });

    // Act
    const report = await runControllerPass(deps, { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' });

    // Assess
    expect(report.launches).toHaveLength(1);
    const launched = decisions.published().find((d) => d.kind === 'Launched');
    expect(launched?.reason).toContain(
      'The cluster would exceed its nodes limit: 1 of 1 used, while interrupted nodes drain',
    );
  });

  it('registers (in one write) and initializes a node that joined, with its claim’s labels and annotations, telling the node and the bus', async () => {
    const { deps, decisions, state } = await aPassWorld(server(), 0);
    const providerID = 'aws:///us-east-1a/i-0123456789abcdef0';
    const claim = await state.nodeClaims.create({
      ...aNewNodeClaim({ name: 'general-abcde', nodePool: 'general' }),
      phase: 'Launched',
      instanceId: 'i-0123456789abcdef0',
      providerID,
      labels: { 'karpenter.sh/nodepool': 'general', team: 'platform' },
      annotations: { 'example.com/runbook': 'https://runbooks.example.com/general' },
      nodePoolHash: { hash: '6849283741046279052', version: 'v3' },
      timestamps: { Pending: new Date(T0).toISOString(), Launched: new Date(T0).toISOString() },
    });
    server().store.create('nodes', {
      metadata: {
        name: 'ip-10-0-1-7.ec2.internal',
        labels: { 'karpenter.sh/nodepool': 'general' },
      },
      spec: { providerID, taints: [{ key: 'karpenter.sh/unregistered', effect: 'NoExecute' }] },
      status: {
        allocatable: { cpu: '2', memory: '8Gi', pods: '110' },
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    });
    const listed = {
      instanceId: claim.instanceId ?? '',
      providerID,
      instanceType: 'm7g.large',
      zone: 'us-east-1a',
      capacityType: 'spot' as const,
      launchTime: new Date(T0).toISOString(),
      state: 'running',
      nodeClaim: claim.name,
      owned: true,
    };
    const real = deps.cloud;
    const cloud: CloudProvider = {
      resolveNodeClass: (c) => real.resolveNodeClass(c),
      instanceTypes: (c, o) => real.instanceTypes(c, o),
      prices: () => real.prices(),
      launch: (c, x) => real.launch(c, x),
      terminate: (id) => real.terminate(id),
      listManaged: async () => [listed],
      describe: async () => [],
      claimOwnership: (ids) => real.claimOwnership(ids),
      instanceStatuses: () => real.instanceStatuses(),
    };
    const settings = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };
    await runControllerPass({ ...deps, cloud }, settings);
    // Registered in one write, its node's pods first seen with it (consolidateAfter counts
    // from then), not in a second write of the claim by the same pass.
    expect(await state.nodeClaims.get(claim.name)).toMatchObject({
      phase: 'Registered',
      version: claim.version + 1,
      pods: { lastPodEventTime: new Date(T0).toISOString() },
    });
    await runControllerPass({ ...deps, cloud }, settings);
    const node = server().store.get('nodes', 'ip-10-0-1-7.ec2.internal');
    expect(node?.metadata).toMatchObject({
      labels: {
        team: 'platform',
        'karpenter.sh/registered': 'true',
        'karpenter.sh/initialized': 'true',
      },
      annotations: {
        'example.com/runbook': 'https://runbooks.example.com/general',
        'karpenter.sh/nodepool-hash': '6849283741046279052',
        'karpenter.sh/nodepool-hash-version': 'v3',
      },
    });
    expect((node?.spec as { taints?: unknown[] } | undefined)?.taints ?? []).toEqual([]);
    expect((await state.nodeClaims.get(claim.name))?.phase).toBe('Initialized');
    // Event names end in a random suffix, so the server lists them in no particular order.
    const reasons = server()
      .store.list('events', 'default')
      .map((e) => String(e.reason));
    expect(reasons.sort()).toEqual(['Initialized', 'Registered']);
    expect(decisions.published().map((d) => [d.kind, d.nodeName])).toEqual([
      ['Registered', 'ip-10-0-1-7.ec2.internal'],
      ['Initialized', 'ip-10-0-1-7.ec2.internal'],
    ]);
  });

  it('does nothing while another pass holds the lease', async () => {
    const { deps, state } = await aPassWorld(server(), 10);
    await state.lease.acquire('another-pass', new Date(T0), 120);
    const report = await runControllerPass(deps, { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' });
    expect(report.ran).toBe(false);
    expect(await state.nodeClaims.list()).toEqual([]);
  });

  it('stops scheduling at its deadline, launches what it decided and asks for the next pass at once', async () => {
    const { deps, waker } = await aPassWorld(server(), 400, { clockStepMs: 5 });
    const report = await runControllerPass(deps, {
      ...DEFAULT_PASS_SETTINGS,
      region: 'us-east-1',
      deadlineMs: 20,
    });
    const cut = report.unschedulable.filter((u) => u.reasons.some((r) => r.code === 'Deadline'));
    expect(cut.length).toBeGreaterThan(0);
    expect(report.launches.length).toBeGreaterThan(0);
    expect(report.launches.flatMap((l) => l.pods).length + cut.length).toBe(400);
    expect(report.nextWakeSeconds).toBe(0);
    expect(waker.queued[0]).toEqual({
      wake: { source: 'controller', reason: `${cut.length} pods left at the deadline` },
      delaySeconds: 0,
    });
  });
});
