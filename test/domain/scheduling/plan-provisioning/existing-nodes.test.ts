import { describe, expect, it } from 'vitest';
import { Label } from '../../../../functions/domain/labels.ts';
import { aNode, aPod } from '../../../support/builders.ts';
import {
  aDaemonSet,
  aManagedNode,
  anInFlightNodeClaim,
  placementOf,
  planFor,
} from '../../../support/scheduling-builders.ts';

describe('placing pods on nodes that already exist', () => {
  it('fills an existing node before opening a claim', () => {
    // Prepare
    const node = aNode({ name: 'node-a', cpu: '4' });
    const pods = [aPod({ name: 'a', cpu: '1' }), aPod({ name: 'b', cpu: '1' })];

    // Act
    const plan = planFor({ pods, nodes: [node] });

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.existingNodes).toEqual([{ name: 'node-a', pods: ['default/a', 'default/b'] }]);
  });

  it('counts the pods already bound to a node', () => {
    // Prepare
    const node = aNode({ name: 'node-a', cpu: '4' });
    const running = aPod({ name: 'running', cpu: '3500m', nodeName: 'node-a' });
    const pending = aPod({ name: 'pending', cpu: '1' });

    // Act
    const plan = planFor({ pods: [running, pending], nodes: [node] });

    // Assess
    expect(plan.existingNodes).toEqual([]);
    expect(placementOf(plan, pending)).toMatchObject({ kind: 'claim' });
    expect(plan.pendingPods).toBe(1);
  });

  it('ignores the requests of terminal pods on a node', () => {
    // Prepare
    const node = aNode({ name: 'node-a', cpu: '4' });
    const finished = {
      ...aPod({ name: 'done', cpu: '3500m', nodeName: 'node-a' }),
      phase: 'Succeeded',
    };
    const pending = aPod({ name: 'pending', cpu: '1' });

    // Act
    const plan = planFor({ pods: [finished, pending], nodes: [node] });

    // Assess
    expect(placementOf(plan, pending)).toEqual({ kind: 'node', node: 'node-a' });
  });

  it('uses a launched NodeClaim whose node has not joined yet', () => {
    // Prepare
    const inFlight = anInFlightNodeClaim({ name: 'default-abc', cpu: '4' });
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodeClaims: [inFlight] });

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(placementOf(plan, pod)).toEqual({ kind: 'node', node: 'default-abc' });
  });

  it('tries initialized nodes before nodes still starting', () => {
    // Prepare
    const starting = aManagedNode({ name: 'a-starting', initialized: false });
    const ready = aManagedNode({ name: 'b-ready' });
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({
      pods: [pod],
      nodes: [starting.node, ready.node],
      nodeClaims: [starting.nodeClaim, ready.nodeClaim],
    });

    // Assess
    expect(placementOf(plan, pod)).toEqual({ kind: 'node', node: 'b-ready' });
  });

  it('does not place pods on a cordoned node', () => {
    // Prepare
    const node = { ...aNode({ name: 'cordoned' }), unschedulable: true };
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodes: [node] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'claim' });
  });

  it('ignores startup taints on a managed node that is not initialized yet', () => {
    // Prepare
    const startupTaint = { key: 'example.com/agent-not-ready', effect: 'NoSchedule' as const };
    const starting = aManagedNode({
      name: 'starting',
      initialized: false,
      taints: [startupTaint, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }],
      startupTaints: [startupTaint],
    });
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodes: [starting.node], nodeClaims: [starting.nodeClaim] });

    // Assess
    expect(placementOf(plan, pod)).toEqual({ kind: 'node', node: 'starting' });
  });

  it('respects a startup taint still present once the node is initialized', () => {
    // Prepare
    const startupTaint = { key: 'example.com/agent-not-ready', effect: 'NoSchedule' as const };
    const ready = aManagedNode({
      name: 'ready',
      taints: [startupTaint],
      startupTaints: [startupTaint],
    });
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodes: [ready.node], nodeClaims: [ready.nodeClaim] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'claim' });
  });

  it('keeps room on a node for a daemon that does not run there yet', () => {
    // Prepare
    const node = aNode({ name: 'node-a', cpu: '4' });
    const daemon = aDaemonSet({ name: 'logging', cpu: '1' });
    const pod = aPod({ name: 'web', cpu: '3500m' });

    // Act
    const plan = planFor({ pods: [pod], nodes: [node], daemonSets: [daemon] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'claim' });
  });

  it('keeps no extra room for a daemon already running on the node', () => {
    // Prepare
    const node = aNode({ name: 'node-a', cpu: '4' });
    const daemon = aDaemonSet({ name: 'logging', cpu: '100m' });
    const daemonPod = aPod({
      name: 'logging-x',
      namespace: 'kube-system',
      cpu: '100m',
      nodeName: 'node-a',
      ownerKind: 'DaemonSet',
      labels: { app: 'logging' },
    });
    const pod = aPod({ name: 'web', cpu: '3800m' });

    // Act
    const plan = planFor({ pods: [daemonPod, pod], nodes: [node], daemonSets: [daemon] });

    // Assess
    expect(placementOf(plan, pod)).toEqual({ kind: 'node', node: 'node-a' });
  });

  it('needs every well-known label a pod asks for to be on the node', () => {
    // Prepare
    const node = aNode({ name: 'bare', cpu: '4' });
    const pod = aPod({ name: 'web', cpu: '1', nodeSelector: { [Label.arch]: 'amd64' } });

    // Act
    const plan = planFor({ pods: [pod], nodes: [node] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'claim' });
  });

  it('moves the pods of a node being deleted to new capacity', () => {
    // Prepare
    const leaving = { ...aNode({ name: 'leaving', cpu: '4' }), deleting: true };
    const pod = aPod({ name: 'web', cpu: '1', nodeName: 'leaving' });

    // Act
    const plan = planFor({ pods: [pod], nodes: [leaving] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'claim' });
    expect(plan.pendingPods).toBe(1);
    expect(plan.existingNodes).toEqual([]);
  });
});
