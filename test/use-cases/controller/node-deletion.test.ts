/**
 * `kubectl delete node` on a node Nodesmith launched, through controller passes against the
 * simulated API server: the termination finalizer registration put on the node holds it while
 * its pods are evicted within their PodDisruptionBudget (or deleted at the NodePool's
 * terminationGracePeriod), the instance is terminated only once the node is drained, and only
 * then does the finalizer go and the Node with it.
 */
import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubernetesClusterFrom } from '../../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import { TERMINATION_FINALIZER } from '../../../functions/domain/termination/finalizer.ts';
import type { CloudProvider, ManagedInstance } from '../../../functions/ports/cloud-provider.ts';
import type { Wake, Waker } from '../../../functions/ports/wake.ts';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import type { PassReport } from '../../../functions/use-cases/controller/pass-report.ts';
import type { JsonObject } from '../../../simulator/api-server/json.ts';
import { kubeConfigFor } from '../../../simulator/api-server/kube-config.ts';
import { SimulatedCloud } from '../../../simulator/cloud/simulated-cloud.ts';
import { MemoryDecisionPublisher } from '../../../simulator/memory/memory-decision-publisher.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import { aStateWithGeneralPool, SetClock, T0, useFakeApiServer } from './pass-world.ts';

const NODE = 'ip-10-0-1-7.ec2.internal';
const INSTANCE = 'i-0123456789abcdef0';
const PROVIDER = `aws:///us-east-1a/${INSTANCE}`;
const SETTINGS = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };

const server = useFakeApiServer();

class Wakes implements Waker {
  async wake(_wake: Wake, _delaySeconds = 0): Promise<void> {}
}

/** The claim's instance as EC2 lists it until it is terminated, beside what the cloud launched. */
class ClaimInstance {
  terminatedWith: string[] | undefined;
  readonly #listed: ManagedInstance = {
    instanceId: INSTANCE,
    providerID: PROVIDER,
    instanceType: 'm7g.large',
    zone: 'us-east-1a',
    capacityType: 'spot',
    launchTime: new Date(T0).toISOString(),
    state: 'running',
    nodeClaim: 'general-abcde',
    owned: true,
  };

  cloud(real: SimulatedCloud): CloudProvider {
    return {
      resolveNodeClass: (c) => real.resolveNodeClass(c),
      instanceTypes: (c, o) => real.instanceTypes(c, o),
      prices: () => real.prices(),
      launch: (c, x) => real.launch(c, x),
      terminate: async (id) => {
        if (id !== INSTANCE) return real.terminate(id);
        // What still ran on the node when its instance went.
        this.terminatedWith ??= podsOn(NODE).map((p) => String(metaOf(p).name));
      },
      listManaged: async () => [
        ...(this.terminatedWith === undefined ? [this.#listed] : []),
        ...(await real.listManaged()),
      ],
      describe: (ids) => real.describe(ids),
      claimOwnership: (ids) => real.claimOwnership(ids),
      instanceStatuses: () => real.instanceStatuses(),
    };
  }
}

function metaOf(object: JsonObject): JsonObject {
  return object.metadata as JsonObject;
}

function podsOn(node: string): JsonObject[] {
  return server()
    .store.list('pods', 'shop')
    .filter((p) => (p.spec as JsonObject | undefined)?.nodeName === node);
}

function runningPod(name: string, annotations: Record<string, string> = {}): JsonObject {
  return {
    metadata: { name, namespace: 'shop', labels: { app: 'web' }, annotations },
    spec: {
      nodeName: NODE,
      terminationGracePeriodSeconds: 30,
      containers: [
        { name: 'web', image: 'web:1', resources: { requests: { cpu: '500m', memory: '1Gi' } } },
      ],
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** A Launched claim and the node its kubelet registered, as a launch leaves them. */
async function setUp(poolTemplate: Record<string, unknown> = {}) {
  const clock = new SetClock();
  const state = await aStateWithGeneralPool(poolTemplate);
  await state.nodeClaims.create({
    ...aNewNodeClaim({ name: 'general-abcde', nodePool: 'general' }),
    phase: 'Launched',
    instanceId: INSTANCE,
    providerID: PROVIDER,
    labels: { 'karpenter.sh/nodepool': 'general' },
    timestamps: { Pending: new Date(T0).toISOString(), Launched: new Date(T0).toISOString() },
  });
  server().store.create('nodes', {
    metadata: { name: NODE, labels: { 'karpenter.sh/nodepool': 'general' } },
    spec: {
      providerID: PROVIDER,
      taints: [{ key: 'karpenter.sh/unregistered', effect: 'NoExecute' }],
    },
    status: {
      allocatable: { cpu: '2', memory: '8Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  });
  const instance = new ClaimInstance();
  const real = new SimulatedCloud({
    clock,
    region: 'us-east-1',
    zones: ['us-east-1a', 'us-east-1b'],
    seed: 1,
  });
  const decisions = new MemoryDecisionPublisher();
  let n = 0;
  const deps = {
    state,
    cluster: kubernetesClusterFrom(kubeConfigFor(server().url), { now: clock.now }),
    cloud: instance.cloud(real),
    decisions,
    waker: new Wakes(),
    clock,
    newClaimName: (pool: string) => `${pool}-${String(++n).padStart(5, '0')}`,
    holder: 'test-pass',
  };
  const pass = () => runControllerPass(deps, SETTINGS);
  const advance = (seconds: number) => clock.advance(seconds);
  return { pass, advance, state, decisions, instance };
}

/** What `kubectl delete node` sends. */
async function kubectlDeleteNode(name: string): Promise<void> {
  await kubeConfigFor(server().url).makeApiClient(CoreV1Api).deleteNode({ name });
}

/** The kubelet finishing pods that were asked to stop (their grace period is over). */
function kubeletStopsDeletedPods(): void {
  for (const pod of podsOn(NODE)) {
    if (metaOf(pod).deletionTimestamp !== undefined)
      server().store.delete('pods', String(metaOf(pod).name), 'shop');
  }
}

interface Observation {
  readonly nodeThere: boolean;
  readonly deleting: number;
  readonly pods: number;
}

function observe(): Observation {
  const pods = podsOn(NODE);
  return {
    nodeThere: server().store.get('nodes', NODE) !== undefined,
    deleting: pods.filter((p) => metaOf(p).deletionTimestamp !== undefined).length,
    pods: pods.length,
  };
}

describe('Nodesmith’s own terminations', () => {
  it('remove the finalizer when they delete the node, so it does not hang', async () => {
    // Prepare: EC2 warns it reclaims the registered node's spot instance
    const { pass, state, instance } = await setUp();
    await pass();
    await pass();
    const claim = await state.nodeClaims.get('general-abcde');
    if (claim === undefined) throw new Error('setting up: no claim');
    const decidedAt = new Date(T0).toISOString();
    await state.nodeClaims.update({
      ...claim,
      phase: 'Disrupting',
      disruption: { reason: 'SpotInterrupted', message: 'spot interruption warning', decidedAt },
    });

    // Act
    for (let i = 0; i < 4 && observe().nodeThere; i++) await pass();

    // Assess
    expect(instance.terminatedWith).toEqual([]);
    expect(server().store.get('nodes', NODE)).toBeUndefined();
    expect(await state.nodeClaims.get('general-abcde')).toBeUndefined();
  });

  it('remove the finalizer when a claim whose instance is gone takes its node along', async () => {
    // Prepare: the instance vanished under a registered node
    const { pass, advance, state, instance } = await setUp();
    await pass();
    await pass();
    instance.terminatedWith = [];

    // Act
    advance(31);
    await pass();

    // Assess
    expect(server().store.get('nodes', NODE)).toBeUndefined();
    expect(await state.nodeClaims.get('general-abcde')).toBeUndefined();
  });
});

describe('kubectl delete node', () => {
  it('drains the node within its PodDisruptionBudget, terminates the instance after the drain, then lets the Node go', async () => {
    // Prepare: the node registers and initializes, then runs three web pods behind a budget
    const { pass, state, decisions, instance } = await setUp();
    await pass();
    await pass();
    const registered = server().store.get('nodes', NODE);
    for (const name of ['web-1', 'web-2', 'web-3']) server().store.create('pods', runningPod(name));
    server().store.create('poddisruptionbudgets', {
      metadata: { name: 'web', namespace: 'shop' },
      spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } },
    });

    // Act
    await kubectlDeleteNode(NODE);
    const held = server().store.get('nodes', NODE);
    const reports: PassReport[] = [];
    const seen: Observation[] = [];
    for (let i = 0; i < 8 && observe().nodeThere; i++) {
      reports.push(await pass());
      seen.push(observe());
      kubeletStopsDeletedPods();
    }

    // Assess
    expect(metaOf(registered ?? {}).finalizers).toEqual([TERMINATION_FINALIZER]);
    expect(metaOf(held ?? {})).toMatchObject({ finalizers: [TERMINATION_FINALIZER] });
    expect(metaOf(held ?? {}).deletionTimestamp).toBeDefined();
    // One pod at a time, as the budget allows, while the node stays.
    expect(seen.map((o) => o.deleting)).toEqual([1, 1, 1, 0, 0]);
    expect(seen.map((o) => o.nodeThere)).toEqual([true, true, true, true, false]);
    const evictions = server().requests.entries.filter((r) => r.path.endsWith('/eviction'));
    expect(evictions.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    expect(instance.terminatedWith).toEqual([]);
    expect(reports[0]?.provisionablePods).toBe(3);
    expect(await state.nodeClaims.get('general-abcde')).toBeUndefined();
    const mine = decisions.published().filter((d) => d.nodeClaim === 'general-abcde');
    expect(mine.map((d) => [d.kind, d.reason])).toEqual([
      ['Registered', `node ${NODE} joined as ${PROVIDER}`],
      ['Initialized', `node ${NODE} is Ready`],
      ['Disrupting', `NodeDeleted: node ${NODE} was deleted`],
      ['Terminated', `NodeDeleted: node ${NODE} was deleted; instance terminated`],
    ]);
  });

  it('leaves a node that lost its finalizer to go on its own, and removes the claim once it is gone', async () => {
    // Prepare: a node registered before Nodesmith added the finalizer, which someone removed
    const { pass, state, instance } = await setUp();
    await pass();
    await pass();
    const registered = server().store.get('nodes', NODE) ?? {};
    server().store.update('nodes', {
      ...registered,
      metadata: { ...metaOf(registered), finalizers: [] },
    });

    // Act
    await kubectlDeleteNode(NODE);
    const gone = server().store.get('nodes', NODE) === undefined;
    await pass();

    // Assess: today's behaviour for such nodes, with nothing left to hold
    expect(gone).toBe(true);
    expect(instance.terminatedWith).toEqual([]);
    expect(await state.nodeClaims.get('general-abcde')).toBeUndefined();
  });

  it('lets go a deleted node the finalizer holds once its claim is gone', async () => {
    // Prepare: the claim's record was lost after registration
    const { pass, state } = await setUp();
    await pass();
    await pass();
    const claim = await state.nodeClaims.get('general-abcde');
    await state.nodeClaims.delete('general-abcde');

    // Act
    await kubectlDeleteNode(NODE);
    const held = server().store.get('nodes', NODE) !== undefined;
    await pass();

    // Assess
    expect(claim?.phase).toBe('Initialized');
    expect(held).toBe(true);
    expect(server().store.get('nodes', NODE)).toBeUndefined();
  });

  it('deletes what the budget keeps at the NodePool’s terminationGracePeriod, then terminates', async () => {
    // Prepare: a budget that allows no eviction, and a pool with a ten-minute grace period
    const { pass, advance, instance } = await setUp({ terminationGracePeriod: '10m' });
    await pass();
    await pass();
    server().store.create('pods', runningPod('web-1'));
    server().store.create('poddisruptionbudgets', {
      metadata: { name: 'web', namespace: 'shop' },
      spec: { maxUnavailable: 0, selector: { matchLabels: { app: 'web' } } },
    });

    // Act
    await kubectlDeleteNode(NODE);
    await pass();
    advance(9 * 60);
    await pass();
    const beforeDeadline = observe();
    // The pod's own 30 s grace would end after the deadline: it is deleted now.
    advance(40);
    await pass();
    const atDeadline = observe();
    kubeletStopsDeletedPods();
    await pass();
    await pass();

    // Assess
    expect(beforeDeadline).toEqual({ nodeThere: true, deleting: 0, pods: 1 });
    expect(atDeadline).toEqual({ nodeThere: true, deleting: 1, pods: 1 });
    expect(instance.terminatedWith).toEqual([]);
    expect(server().store.get('nodes', NODE)).toBeUndefined();
  });
});
