import { describe, expect, it } from 'vitest';
import { Label } from '../../../functions/domain/labels.ts';
import type { Node } from '../../../functions/domain/node.ts';
import type { Pod } from '../../../functions/domain/pod.ts';
import { selectPending } from '../../../functions/domain/scheduling/pending-pods.ts';
import { aNode, aPod } from '../../support/builders.ts';
import { requiredNodeAffinity } from '../../support/scheduling-builders.ts';

const LEAVING: Node = { ...aNode({ name: 'leaving' }), deleting: true };
const STAYING = aNode({ name: 'staying' });

function names(pods: readonly Pod[]): string[] {
  return pods.map((p) => p.name);
}

describe('which pending pods the provisioner acts on', () => {
  it.each<[string, Pod, string]>([
    [
      'a DaemonSet pod',
      aPod({ name: 'p', ownerKind: 'DaemonSet' }),
      'DaemonSet pods are placed by their controller as nodes join',
    ],
    [
      'a mirror pod',
      aPod({ name: 'p', ownerKind: 'Node' }),
      'mirror pods are managed by the kubelet',
    ],
    [
      'a preempting pod',
      { ...aPod({ name: 'p' }), nominatedNodeName: 'node-x' },
      'preempting: nominated to node node-x',
    ],
    [
      'a pod with dynamic resource claims',
      aPod({ name: 'p', resourceClaimCount: 1 }),
      'pods with dynamic resource claims are not provisioned for',
    ],
    [
      'a pod that refuses nodes with a NodePool',
      aPod({
        name: 'p',
        affinity: requiredNodeAffinity([{ key: Label.nodePool, operator: 'DoesNotExist' }]),
      }),
      `selects nodes without ${Label.nodePool}: left to other node groups`,
    ],
  ])('leaves %s to others, with the reason', (_label, pod, reason) => {
    // Act
    const selection = selectPending([pod], [], false);

    // Assess
    expect(selection.pending).toEqual([]);
    expect(selection.ignored).toEqual([{ pod, reason }]);
  });

  it.each<[string, Pod]>([
    ['a plain pod', aPod({ name: 'p' })],
    [
      'a pod that only pins a NodePool',
      aPod({
        name: 'p',
        affinity: requiredNodeAffinity([{ key: Label.nodePool, operator: 'Exists' }]),
      }),
    ],
    ['a pod with a zero resource-claim count', aPod({ name: 'p', resourceClaimCount: 0 })],
    ['a pod owned by a ReplicaSet', aPod({ name: 'p', ownerKind: 'ReplicaSet' })],
  ])('acts on %s', (_label, pod) => {
    // Act
    const selection = selectPending([pod], [], false);

    // Assess
    expect(selection.pending).toEqual([pod]);
    expect(selection.ignored).toEqual([]);
  });

  it.each<[string, boolean | undefined, boolean]>([
    ['waits for the Unschedulable mark when asked to', undefined, false],
    ['acts on a pod once it is marked Unschedulable', true, true],
  ])('%s', (_label, marked, acted) => {
    // Prepare
    const pod: Pod = { ...aPod({ name: 'p' }), ...(marked ? { markedUnschedulable: marked } : {}) };

    // Act
    const strict = selectPending([pod], [], true);
    const whatIf = selectPending([pod], [], false);

    // Assess
    expect(names(strict.pending)).toEqual(acted ? ['p'] : []);
    expect(strict.ignored.map((i) => i.reason)).toEqual(
      acted ? [] : ['not yet marked Unschedulable by kube-scheduler'],
    );
    expect(names(whatIf.pending)).toEqual(['p']);
  });

  it('reports a DaemonSet pod as such even when the Unschedulable mark is required', () => {
    // Prepare
    const pod = aPod({ name: 'p', ownerKind: 'DaemonSet' });

    // Act
    const selection = selectPending([pod], [], true);

    // Assess
    expect(selection.ignored.map((i) => i.reason)).toEqual([
      'DaemonSet pods are placed by their controller as nodes join',
    ]);
  });

  it('leaves out bound, deleting and finished pods without a reason', () => {
    // Prepare
    const pods: Pod[] = [
      aPod({ name: 'bound', nodeName: 'staying' }),
      { ...aPod({ name: 'deleting' }), deleting: true },
      { ...aPod({ name: 'failed' }), phase: 'Failed' },
      { ...aPod({ name: 'succeeded' }), phase: 'Succeeded' },
    ];

    // Act
    const selection = selectPending(pods, [STAYING], false);

    // Assess
    expect(selection).toEqual({ pending: [], ignored: [] });
  });
});

describe('the pods of nodes being deleted', () => {
  it('makes them pending again, unbound, whatever the Unschedulable mark', () => {
    // Prepare
    const moving = aPod({ name: 'moving', nodeName: 'leaving' });

    // Act
    const selection = selectPending([moving], [LEAVING, STAYING], true);

    // Assess
    expect(names(selection.pending)).toEqual(['moving']);
    expect(selection.pending[0]?.nodeName).toBeUndefined();
    expect(moving.nodeName).toBe('leaving');
    expect(selection.ignored).toEqual([]);
  });

  it.each<[string, Pod]>([
    ['its DaemonSet pods', aPod({ name: 'p', nodeName: 'leaving', ownerKind: 'DaemonSet' })],
    ['its mirror pods', aPod({ name: 'p', nodeName: 'leaving', ownerKind: 'Node' })],
    ['its pods being deleted', { ...aPod({ name: 'p', nodeName: 'leaving' }), deleting: true }],
    ['its finished pods', { ...aPod({ name: 'p', nodeName: 'leaving' }), phase: 'Succeeded' }],
  ])('leaves %s where they are', (_label, pod) => {
    // Act
    const selection = selectPending([pod], [LEAVING], false);

    // Assess
    expect(selection).toEqual({ pending: [], ignored: [] });
  });

  it('leaves the pods of nodes that stay where they are', () => {
    // Prepare
    const pods = [
      aPod({ name: 'stays', nodeName: 'staying' }),
      aPod({ name: 'moves', nodeName: 'leaving' }),
    ];

    // Act
    const selection = selectPending(pods, [LEAVING, STAYING], false);

    // Assess
    expect(names(selection.pending)).toEqual(['moves']);
  });
});
