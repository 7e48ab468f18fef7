/** Which of Karpenter's NodeClaims adoption takes, and why it leaves the others alone. */
import { describe, expect, it } from 'vitest';
import {
  adoptionCandidates,
  instanceIdOf,
} from '../../../functions/domain/adoption/karpenter-node-claim.ts';
import type { Node } from '../../../functions/domain/node.ts';
import type { NodeClaim } from '../../../functions/domain/node-claim.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import { aNode, aNodePool } from '../../support/builders.ts';

function karpenterClaim(name: string, overrides: Partial<NodeClaim['metadata']> = {}): NodeClaim {
  return {
    metadata: { name, labels: { 'karpenter.sh/nodepool': 'general' }, ...overrides },
    spec: {
      requirements: [],
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
    },
    status: {
      providerID: `aws:///us-east-1a/i-0${name.length}aaaaaaaaaaaaaa${name.at(-1)}`,
      nodeName: `${name}.node`,
      conditions: [{ type: 'Initialized', status: 'True' }],
    },
  };
}

function nodeOf(claim: NodeClaim, changes: Partial<Node> = {}): Node {
  const providerID = claim.status?.providerID ?? '';
  return { ...aNode({ name: claim.status?.nodeName ?? '' }), providerID, ...changes };
}

const POOLS = [aNodePool({ name: 'general' })];

describe('adoptionCandidates', () => {
  it('takes a settled NodeClaim of a NodePool Nodesmith holds, with its node and instance id', () => {
    const claim = karpenterClaim('general-k1');
    const node = nodeOf(claim);
    const choice = adoptionCandidates({
      nodeClaims: [claim],
      records: [],
      nodes: [node],
      nodePools: POOLS,
    });
    expect(choice).toEqual({
      candidates: [{ nodeClaim: claim, node, instanceId: 'i-010aaaaaaaaaaaaaa1' }],
      skipped: [],
    });
  });

  it('leaves alone, saying why, what is being deleted, unlaunched, unjoined, uninitialized, not Ready or of another pool', () => {
    const deleting = karpenterClaim('general-a1', { deletionTimestamp: '2026-11-01T00:00:00Z' });
    const unlaunched: NodeClaim = { ...karpenterClaim('general-a2'), status: {} };
    const unjoined = karpenterClaim('general-a3');
    const uninitialized: NodeClaim = {
      ...karpenterClaim('general-a4'),
      status: { ...karpenterClaim('general-a4').status, conditions: [] },
    };
    const notReady = karpenterClaim('general-a5');
    const otherPool = karpenterClaim('general-a6', { labels: { 'karpenter.sh/nodepool': 'gpu' } });
    const choice = adoptionCandidates({
      nodeClaims: [otherPool, notReady, uninitialized, unjoined, unlaunched, deleting],
      records: [],
      nodes: [nodeOf(uninitialized), nodeOf(notReady, { ready: false }), nodeOf(otherPool)],
      nodePools: POOLS,
    });
    expect(choice.candidates).toEqual([]);
    expect(choice.skipped).toEqual([
      { nodeClaim: 'general-a1', reason: 'it is being deleted' },
      { nodeClaim: 'general-a2', reason: 'it has no EC2 instance yet' },
      { nodeClaim: 'general-a3', reason: 'its node has not joined' },
      { nodeClaim: 'general-a4', nodeName: 'general-a4.node', reason: 'it is not initialized' },
      { nodeClaim: 'general-a5', nodeName: 'general-a5.node', reason: 'its node is not Ready' },
      {
        nodeClaim: 'general-a6',
        nodeName: 'general-a6.node',
        reason: "NodePool gpu is not one of Nodesmith's",
      },
    ]);
  });

  it('says nothing of a NodeClaim already adopted, found by name or by instance', () => {
    const byName = karpenterClaim('general-b1');
    const byInstance = karpenterClaim('general-b2');
    const choice = adoptionCandidates({
      nodeClaims: [byName, byInstance],
      records: [
        aNewNodeClaim({ name: 'general-b1', phase: 'Initialized' }),
        {
          ...aNewNodeClaim({ name: 'other', phase: 'Initialized' }),
          providerID: byInstance.status?.providerID ?? '',
        },
      ].map((r) => ({ ...r, version: 1 })),
      nodes: [nodeOf(byName), nodeOf(byInstance)],
      nodePools: POOLS,
    });
    expect(choice).toEqual({ candidates: [], skipped: [] });
  });
});

describe('instanceIdOf', () => {
  it("reads the instance id of an EC2 providerID and nothing else's", () => {
    expect(instanceIdOf('aws:///us-east-1a/i-0123456789abcdef0')).toBe('i-0123456789abcdef0');
    expect(instanceIdOf('kind://docker/kind/kind-worker')).toBeUndefined();
    expect(instanceIdOf('aws:///us-east-1a/fargate-ip-10-0-0-1')).toBeUndefined();
    expect(instanceIdOf(undefined)).toBeUndefined();
  });
});
