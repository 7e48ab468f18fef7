/** Registration writes what Karpenter's registration controller writes (core registration.go). */
import { describe, expect, it } from 'vitest';
import {
  registrationPatch,
  UNREGISTERED_TAINT,
} from '../../../functions/domain/lifecycle/node-readiness.ts';
import { TERMINATION_FINALIZER } from '../../../functions/domain/termination/finalizer.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import { aNode } from '../../support/builders.ts';

const claim = {
  ...aNewNodeClaim(),
  version: 2,
  labels: { 'karpenter.sh/nodepool': 'default', team: 'web' },
  taints: [{ key: 'dedicated', value: 'web', effect: 'NoSchedule' as const }],
  startupTaints: [{ key: 'node.cilium.io/agent-not-ready', effect: 'NoExecute' as const }],
  annotations: { 'example.com/owner': 'team-web' },
  nodePoolHash: { hash: '6849283741046279052', version: 'v3' },
};

describe('registration', () => {
  it('labels and annotates the node as the claim’s and registered, syncs its taints and lifts the unregistered taint', () => {
    expect(registrationPatch(claim, aNode({ name: 'n' }))).toEqual({
      labels: {
        'karpenter.sh/nodepool': 'default',
        team: 'web',
        'karpenter.sh/registered': 'true',
      },
      // core registration.go syncNode: the NodeClaim's annotations, its template's and hashes.
      annotations: {
        'example.com/owner': 'team-web',
        'karpenter.sh/nodepool-hash': '6849283741046279052',
        'karpenter.sh/nodepool-hash-version': 'v3',
      },
      addTaints: [...claim.taints, ...claim.startupTaints],
      removeTaints: [UNREGISTERED_TAINT],
      finalizers: [TERMINATION_FINALIZER],
    });
  });

  it('adds no finalizer to a node already being deleted, which would refuse it', () => {
    const deleting = { ...aNode({ name: 'n' }), deleting: true };
    expect(registrationPatch(claim, deleting).finalizers).toEqual([]);
  });

  it('leaves the taints alone on a node labelled karpenter.sh/do-not-sync-taints', () => {
    const node = aNode({ name: 'n', labels: { 'karpenter.sh/do-not-sync-taints': 'true' } });
    expect(registrationPatch(claim, node).addTaints).toEqual([]);
  });
});
