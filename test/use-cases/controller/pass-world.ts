/**
 * A controller pass's world for the tests of one pass: the simulated API server over HTTP, the
 * simulated cloud, the memory state store with the `general` pool and its class, and a clock the
 * test moves. The cloud can be told to refuse TerminateInstances for some instances and to list
 * instances it never launched.
 */
import { afterEach, beforeEach } from 'vitest';
import { kubernetesClusterFrom } from '../../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import type { PlacementGroup } from '../../../functions/domain/placement-group.ts';
import type { NodeClaimRecord } from '../../../functions/domain/state/node-claim-record.ts';
import type { ManagedInstance } from '../../../functions/ports/cloud-provider.ts';
import { InvalidConfigError } from '../../../functions/ports/errors.ts';
import type { StateStore } from '../../../functions/ports/state-store.ts';
import type { Wake, Waker } from '../../../functions/ports/wake.ts';
import type { PassDependencies } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import { kubeConfigFor } from '../../../simulator/api-server/kube-config.ts';
import { type FakeApiServer, startFakeApiServer } from '../../../simulator/api-server/server.ts';
import { SimulatedCloud } from '../../../simulator/cloud/simulated-cloud.ts';
import { MemoryDecisionPublisher } from '../../../simulator/memory/memory-decision-publisher.ts';
import { makeMemoryStateStore } from '../../../simulator/memory/memory-state-store.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import { aMinimalNodeClass, aMinimalNodePool } from '../../support/karpenter-documents.ts';
import { storeDocuments } from '../../support/stored-documents.ts';
import { WEB_SHOP_NAMESPACES, webShopPods } from '../../support/unschedulable-pods.ts';

export const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);
export const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'];

/** The simulated API server for each test of the file: started before it, closed after it. */
export function useFakeApiServer(): () => FakeApiServer {
  let server: FakeApiServer | undefined;
  beforeEach(async () => {
    server = await startFakeApiServer({ namespaces: ['default', ...WEB_SHOP_NAMESPACES] });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return () => {
    if (server === undefined) throw new Error('using the fake API server: it has not started');
    return server;
  };
}

/**
 * The pool the passes launch for, `general`, as a platform team writes it for Karpenter: spot
 * first with on-demand allowed, current c/m/r families, both architectures, consolidation on.
 * `template` adds to its template's spec.
 */
export function generalPool(template: Record<string, unknown> = {}): object {
  const pool = aMinimalNodePool();
  return {
    ...pool,
    metadata: { name: 'general' },
    spec: {
      template: {
        metadata: {
          labels: { team: 'platform' },
          annotations: { 'example.com/runbook': 'https://runbooks.example.com/general' },
        },
        spec: {
          ...pool.spec.template.spec,
          requirements: [
            { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'on-demand'] },
            { key: 'karpenter.k8s.aws/instance-category', operator: 'In', values: ['c', 'm', 'r'] },
            { key: 'karpenter.k8s.aws/instance-generation', operator: 'Gt', values: ['5'] },
            { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64', 'arm64'] },
          ],
          expireAfter: '720h',
          ...template,
        },
      },
      disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '1m' },
    },
  };
}

/** `general` made static: it keeps `replicas` nodes (and at most `nodes`, if given). */
export function staticGeneralPool(replicas: number, nodes?: number): object {
  const pool = generalPool() as { spec: object };
  const limits = nodes === undefined ? {} : { limits: { nodes: String(nodes) } };
  return { ...pool, spec: { ...pool.spec, replicas, ...limits } };
}

/**
 * A state store holding the `general` pool (with `template` added, or `pool` in its place) and
 * its class `default`.
 */
export async function aStateWithGeneralPool(
  template: Record<string, unknown> = {},
  pool: object = generalPool(template),
) {
  const state = makeMemoryStateStore();
  await storeDocuments(state, [aMinimalNodeClass(), pool]);
  return state;
}

/** The stored class `default` with `spec` added to its spec, as an operator applies it. */
export async function updateDefaultClass(
  state: StateStore,
  spec: Record<string, unknown>,
): Promise<void> {
  const stored = await state.nodeClasses.get('default');
  if (stored === undefined) throw new Error('updating the default class: it is not stored');
  const { document } = stored;
  await state.nodeClasses.put({
    document: { ...document, spec: { ...document.spec, ...spec } },
    hash: JSON.stringify(spec),
    expectedResourceVersion: stored.resourceVersion,
  });
}

export class Wakes implements Waker {
  readonly queued: { wake: Wake; delaySeconds: number }[] = [];
  async wake(wake: Wake, delaySeconds = 0): Promise<void> {
    this.queued.push({ wake, delaySeconds });
  }
}

/**
 * A clock the test sets: passes read the same instant until it is moved, or, given a step, an
 * instant `stepMs` later at every reading, as wall time moves during a pass.
 */
export class SetClock {
  #ms = T0;
  constructor(readonly stepMs = 0) {}
  now = (): Date => {
    this.#ms += this.stepMs;
    return new Date(this.#ms);
  };
  moveTo(secondsAfterT0: number): void {
    this.#ms = T0 + secondsAfterT0 * 1000;
  }
  advance(seconds: number): void {
    this.#ms += seconds * 1000;
  }
}

/** The simulated cloud, with TerminateInstances refused for some instances (an edited tag). */
export class RefusingCloud extends SimulatedCloud {
  readonly refused = new Set<string>();
  readonly terminateCalls: string[] = [];
  readonly alsoListed: ManagedInstance[] = [];
  onTerminate: (instanceId: string) => Promise<void> = async () => undefined;

  override async terminate(instanceId: string): Promise<void> {
    this.terminateCalls.push(instanceId);
    await this.onTerminate(instanceId);
    if (this.refused.has(instanceId)) {
      throw new InvalidConfigError(
        `terminating instance ${instanceId}: UnauthorizedOperation: You are not authorized to perform this operation`,
      );
    }
    this.alsoListed.splice(
      0,
      this.alsoListed.length,
      ...this.alsoListed.filter((i) => i.instanceId !== instanceId),
    );
    return super.terminate(instanceId);
  }

  override async listManaged(): Promise<readonly ManagedInstance[]> {
    return [...(await super.listManaged()), ...this.alsoListed];
  }
}

export interface PassWorld {
  readonly deps: PassDependencies;
  readonly state: StateStore;
  readonly cloud: RefusingCloud;
  readonly clock: SetClock;
  readonly waker: Wakes;
  readonly decisions: MemoryDecisionPublisher;
}

/**
 * The `general` pool (or `pool` in its place), and `pods` pods of a web shop kube-scheduler
 * marked Unschedulable; the clock moves `clockStepMs` at every reading; the account holds
 * `placementGroups`.
 */
export async function aPassWorld(
  server: FakeApiServer,
  pods: number,
  {
    clockStepMs = 0,
    pool,
    placementGroups = [],
  }: {
    readonly clockStepMs?: number;
    readonly pool?: object;
    readonly placementGroups?: readonly PlacementGroup[];
  } = {},
): Promise<PassWorld> {
  const state = await aStateWithGeneralPool({}, pool);
  for (const pod of webShopPods(pods)) server.store.create('pods', pod);
  const clock = new SetClock(clockStepMs);
  const cloud = new RefusingCloud({
    clock,
    region: 'us-east-1',
    zones: ZONES,
    seed: 1,
    placementGroups,
  });
  const waker = new Wakes();
  const decisions = new MemoryDecisionPublisher();
  let n = 0;
  const deps: PassDependencies = {
    state,
    cluster: kubernetesClusterFrom(kubeConfigFor(server.url), { now: clock.now }),
    cloud,
    decisions,
    waker,
    clock,
    newClaimName: (pool: string) => `${pool}-${String(++n).padStart(5, '0')}`,
    holder: 'test-pass',
  };
  return { deps, state, cloud, clock, waker, decisions };
}

/**
 * A claim of pool `general` launched an hour ago, its instance listed by the cloud: Initialized
 * on its node, or, with `joined: false`, Launched and never registered.
 */
export async function aRunningClaim(
  world: PassWorld,
  server: FakeApiServer,
  name: string,
  { joined = true, ...overrides }: Partial<NodeClaimRecord> & { joined?: boolean } = {},
): Promise<NodeClaimRecord> {
  const suffix = name
    .replace(/[^0-9a-z]/g, '')
    .slice(-8)
    .padStart(8, '0');
  const instanceId = `i-0${suffix}deadbeef`;
  const providerID = `aws:///us-east-1a/${instanceId}`;
  const nodeName = `ip-10-0-0-${world.cloud.alsoListed.length + 1}.ec2.internal`;
  const at = new Date(T0 - 3_600_000).toISOString();
  const claim = await world.state.nodeClaims.create({
    ...aNewNodeClaim({ name, nodePool: 'general' }),
    instanceId,
    providerID,
    labels: { 'karpenter.sh/nodepool': 'general' },
    ...(joined
      ? {
          phase: 'Initialized',
          nodeName,
          timestamps: { Pending: at, Launched: at, Registered: at, Initialized: at },
        }
      : { phase: 'Launched', timestamps: { Pending: at, Launched: at } }),
    ...overrides,
  });
  if (joined)
    server.store.create('nodes', {
      metadata: {
        name: nodeName,
        labels: {
          'karpenter.sh/nodepool': 'general',
          'karpenter.sh/registered': 'true',
          'karpenter.sh/initialized': 'true',
        },
      },
      spec: { providerID },
      status: {
        allocatable: { cpu: '2', memory: '8Gi', pods: '110' },
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    });
  world.cloud.alsoListed.push({
    instanceId,
    providerID,
    instanceType: 'm7g.large',
    zone: 'us-east-1a',
    capacityType: 'spot',
    launchTime: at,
    state: 'running',
    owned: true,
    nodeClaim: name,
    nodePool: 'general',
  });
  return claim;
}

/**
 * A running claim whose node carries its offering's labels, as registration gives them: in
 * the pool's catalog, so not drifted.
 */
export async function aLabelledClaim(world: PassWorld, server: FakeApiServer, name: string) {
  const claim = await aRunningClaim(world, server, name);
  const node = server.store.get('nodes', claim.nodeName ?? '');
  const metadata = node?.metadata as { labels: Record<string, string> } | undefined;
  if (node === undefined || metadata === undefined) throw new Error(`no node for ${name}`);
  const labels = {
    ...metadata.labels,
    'node.kubernetes.io/instance-type': 'm7g.large',
    'topology.kubernetes.io/zone': 'us-east-1a',
    'karpenter.sh/capacity-type': 'spot',
    'kubernetes.io/arch': 'arm64',
  };
  server.store.update('nodes', { ...node, metadata: { ...metadata, labels } });
  return claim;
}

/** The events the simulated API server holds for one object, by reason. */
export function eventsAbout(
  server: FakeApiServer,
  name: string,
  reason: string,
  namespaces: readonly string[] = ['default'],
) {
  return namespaces
    .flatMap((namespace) => server.store.list('events', namespace))
    .filter((e) => (e.involvedObject as { name?: string }).name === name && e.reason === reason);
}
