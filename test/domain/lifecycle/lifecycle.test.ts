/**
 * The lifecycle step's decisions (docs/design.md §3.5; kubernetes-sigs/karpenter
 * pkg/controllers/nodeclaim/lifecycle and nodeclaim/garbagecollection): each claim moves
 * on by exactly what the cluster and the cloud show now, and time limits apply as Karpenter's
 * liveness and garbage collection apply them.
 */
import { describe, expect, it } from 'vitest';
import {
  type CloudInstance,
  lifecycleActions,
} from '../../../functions/domain/lifecycle/lifecycle.ts';
import { UNREGISTERED_TAINT } from '../../../functions/domain/lifecycle/node-readiness.ts';
import type { Node } from '../../../functions/domain/node.ts';
import type { NodeClaimRecord } from '../../../functions/domain/state/node-claim-record.ts';
import { TERMINATION_FINALIZER } from '../../../functions/domain/termination/finalizer.ts';
import { aNewNodeClaim, secondsAfter, T0 } from '../../contracts/state-fixtures.ts';
import { aNode } from '../../support/builders.ts';

const PROVIDER = 'aws:///us-east-1a/i-0123456789abcdef0';

function aClaim(overrides: Partial<NodeClaimRecord> = {}): NodeClaimRecord {
  return { ...aNewNodeClaim(), version: 1, ...overrides };
}

function launched(overrides: Partial<NodeClaimRecord> = {}): NodeClaimRecord {
  return aClaim({
    phase: 'Launched',
    instanceId: 'i-0123456789abcdef0',
    providerID: PROVIDER,
    timestamps: { Pending: T0.toISOString(), Launched: T0.toISOString() },
    ...overrides,
  });
}

function anInstance(overrides: Partial<CloudInstance> = {}): CloudInstance {
  return {
    instanceId: 'i-0123456789abcdef0',
    providerID: PROVIDER,
    instanceType: 'm7g.large',
    zone: 'us-east-1a',
    capacityType: 'spot',
    launchTime: T0.toISOString(),
    nodeClaim: 'default-abc12',
    owned: true,
    ...overrides,
  };
}

/** A node that joined; registration has put the termination finalizer on it. */
function joined(overrides: Partial<Node> = {}): Node {
  return {
    ...aNode({ name: 'ip-10-0-1-7.ec2.internal' }),
    providerID: PROVIDER,
    finalizers: [TERMINATION_FINALIZER],
    ...overrides,
  };
}

const kinds = (actions: ReturnType<typeof lifecycleActions>) => actions.map((a) => a.kind);

/** What to do for one claim, its instance listed, beside these nodes, `seconds` after T0. */
function actionsFor(claim: NodeClaimRecord, nodes: readonly Node[], seconds: number) {
  return lifecycleActions({
    claims: [claim],
    nodes,
    instances: [anInstance()],
    now: secondsAfter(T0, seconds),
  });
}

describe('lifecycle actions', () => {
  it('launches a claim a stopped pass wrote, and records an instance it launched instead of launching again', () => {
    const claim = aClaim();
    expect(
      kinds(
        lifecycleActions({ claims: [claim], nodes: [], instances: [], now: secondsAfter(T0, 10) }),
      ),
    ).toEqual(['Launch']);
    const adopt = actionsFor(claim, [], 10);
    expect(adopt).toEqual([{ kind: 'Adopt', claim, instance: anInstance() }]);
  });

  it('gives up on a claim that could not be launched for five minutes', () => {
    const [action] = lifecycleActions({
      claims: [aClaim()],
      nodes: [],
      instances: [],
      now: secondsAfter(T0, 301),
    });
    expect(action).toMatchObject({ kind: 'Remove', reason: 'launch did not complete within 5m' });
  });

  it('registers the node that joined with the claim’s provider id, and waits for one that has not', () => {
    const claim = launched();
    const node = joined();
    expect(actionsFor(claim, [node], 40)).toEqual([{ kind: 'Register', claim, node }]);
    const stranger = joined({ providerID: 'aws:///us-east-1a/i-0fffffffffffffff0' });
    expect(actionsFor(claim, [stranger], 40)).toEqual([]);
  });

  it('terminates an instance whose node has not registered within 15 minutes', () => {
    const claim = launched();
    const at = (s: number) => actionsFor(claim, [], s);
    expect(at(900)).toEqual([]);
    expect(at(901)).toEqual([
      { kind: 'Remove', claim, reason: 'node did not register within 15m' },
    ]);
  });

  it('initializes a registered node once it is Ready with its startup taints gone and its GPUs registered', () => {
    const claim = launched({
      phase: 'Registered',
      startupTaints: [{ key: 'node.cilium.io/agent-not-ready', effect: 'NoExecute' }],
      requests: { cpu: 1000, 'nvidia.com/gpu': 1 },
    });
    const at = (node: Node) => kinds(actionsFor(claim, [node], 60));
    const gpu = { ...joined().allocatable, 'nvidia.com/gpu': 1 };
    expect(at(joined({ ready: false, allocatable: gpu }))).toEqual([]);
    expect(
      at(
        joined({
          taints: [{ key: 'node.cilium.io/agent-not-ready', value: 'x', effect: 'NoExecute' }],
          allocatable: gpu,
        }),
      ),
    ).toEqual([]);
    expect(at(joined({ taints: [UNREGISTERED_TAINT], allocatable: gpu }))).toEqual([]);
    expect(at(joined())).toEqual([]);
    expect(at(joined({ allocatable: gpu }))).toEqual(['Initialize']);
  });

  it('removes a claim whose instance is gone, with its node, after the listing grace', () => {
    const claim = launched({ phase: 'Initialized', nodeName: 'ip-10-0-1-7.ec2.internal' });
    const node = joined();
    expect(
      lifecycleActions({
        claims: [claim],
        nodes: [node],
        instances: [],
        now: secondsAfter(T0, 20),
      }),
    ).toEqual([]);
    expect(
      lifecycleActions({
        claims: [claim],
        nodes: [node],
        instances: [],
        now: secondsAfter(T0, 31),
      }),
    ).toEqual([{ kind: 'Remove', claim, node, reason: 'instance is gone' }]);
  });

  it('removes the claim and its instance when its registered node was deleted', () => {
    const claim = launched({ phase: 'Initialized', nodeName: 'ip-10-0-1-7.ec2.internal' });
    expect(actionsFor(claim, [], 60)).toEqual([
      { kind: 'Remove', claim, reason: 'node ip-10-0-1-7.ec2.internal was deleted' },
    ]);
  });

  it('marks the claim for deletion when its node was deleted and the finalizer holds it', () => {
    const claim = launched({ phase: 'Initialized', nodeName: 'ip-10-0-1-7.ec2.internal' });
    const node = joined({ deleting: true });
    expect(actionsFor(claim, [node], 60)).toEqual([{ kind: 'MarkForDeletion', claim, node }]);
  });

  it('leaves a deleted node without the finalizer to go on its own, as before', () => {
    const claim = launched({ phase: 'Initialized', nodeName: 'ip-10-0-1-7.ec2.internal' });
    const node = joined({ deleting: true, finalizers: ['example.com/other'] });
    expect(actionsFor(claim, [node], 60)).toEqual([]);
  });

  it('adds the finalizer to the node of a claim registered before it was added, once', () => {
    const registered = launched({ phase: 'Registered', nodeName: 'ip-10-0-1-7.ec2.internal' });
    const initialized = { ...registered, name: 'default-abc13', phase: 'Initialized' as const };
    const { finalizers: _, ...bare } = joined();
    const actions = (node: Node) =>
      kinds(
        lifecycleActions({
          claims: [registered, initialized],
          nodes: [node],
          instances: [anInstance(), anInstance({ nodeClaim: 'default-abc13' })],
          now: secondsAfter(T0, 60),
        }),
      );
    expect(actions(bare)).toEqual(['AddFinalizer', 'AddFinalizer']);
    expect(actions(joined())).toEqual(['Initialize']);
  });

  it('releases a deleted node held by the finalizer that no claim owns, and no other node', () => {
    const claim = launched({ phase: 'Initialized', nodeName: 'ip-10-0-1-7.ec2.internal' });
    const owned = joined({ deleting: true });
    const orphan = joined({
      name: 'ip-10-0-9-9.ec2.internal',
      providerID: 'aws:///x/i-0f',
      deleting: true,
    });
    const live = joined({ name: 'ip-10-0-9-8.ec2.internal', providerID: 'aws:///x/i-0e' });
    const foreign = {
      ...orphan,
      name: 'ip-10-0-9-7.ec2.internal',
      finalizers: ['karpenter.sh/termination'],
    };
    const actions = actionsFor(claim, [owned, orphan, live, foreign], 60);
    expect(actions).toEqual([
      { kind: 'MarkForDeletion', claim, node: owned },
      { kind: 'ReleaseNode', node: orphan },
    ]);
  });

  it('terminates instances with the cluster tags and no claim once they are older than 30 seconds', () => {
    const young = anInstance({
      instanceId: 'i-0aaaaaaaaaaaaaaa1',
      nodeClaim: 'default-gone1',
      launchTime: secondsAfter(T0, 10).toISOString(),
    });
    const old = anInstance({ instanceId: 'i-0aaaaaaaaaaaaaaa2', nodeClaim: 'default-gone2' });
    const untagged = anInstance({ instanceId: 'i-0aaaaaaaaaaaaaaa3', nodeClaim: undefined });
    const actions = lifecycleActions({
      claims: [],
      nodes: [],
      instances: [untagged, young, old],
      now: secondsAfter(T0, 35),
    });
    expect(actions).toEqual([
      { kind: 'TerminateOrphan', instance: old },
      { kind: 'TerminateOrphan', instance: untagged },
    ]);
  });

  it('never terminates an instance without the ownership tag, such as a running Karpenter node', () => {
    // Prepare: Karpenter's instance has the cluster tag and its own NodeClaim, but no claim here
    const karpenters = anInstance({
      instanceId: 'i-0bbbbbbbbbbbbbbb1',
      nodeClaim: 'default-k8s01',
      nodePool: 'default',
      owned: false,
    });
    // Act
    const actions = lifecycleActions({
      claims: [],
      nodes: [],
      instances: [karpenters],
      now: secondsAfter(T0, 3600),
    });
    // Assess
    expect(actions).toEqual([]);
  });

  it('decides in name order and the same way every time', () => {
    const claims = ['c', 'a', 'b'].map((name) => aClaim({ name }));
    const input = { claims, nodes: [], instances: [], now: secondsAfter(T0, 1) };
    const first = lifecycleActions(input);
    expect(first.map((a) => ('claim' in a ? a.claim.name : ''))).toEqual(['a', 'b', 'c']);
    expect(lifecycleActions(input)).toEqual(first);
  });
});
