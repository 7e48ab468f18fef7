/**
 * The NodeClaims a `simulate -f` run seeds for a dump's nodes of its NodePools, so that
 * adoption finds Karpenter's NodeClaim behind each of them.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../simulator/api-server/json.ts';
import {
  nodeClaimOfNode,
  nodeClaimsOfNodes,
} from '../../../simulator/scenarios/existing-node-claims.ts';

const POOLS = new Set(['default']);

function node(name: string, labels: Record<string, string>, extra: JsonObject = {}): JsonObject {
  return {
    metadata: { name, creationTimestamp: '2026-09-01T07:00:00Z', labels, ...extra },
    spec: { providerID: `aws:///us-east-1a/i-0${name.length}aa` },
    status: {
      capacity: { cpu: '4', memory: '16Gi', pods: '58' },
      allocatable: { cpu: '3920m', memory: '14481Mi', pods: '58' },
    },
  };
}

const POOL_LABELS = {
  'karpenter.sh/nodepool': 'default',
  'karpenter.k8s.aws/ec2nodeclass': 'general',
  'node.kubernetes.io/instance-type': 'm5.xlarge',
  'karpenter.sh/initialized': 'true',
};

describe('the NodeClaims of a dump’s nodes', () => {
  it('writes the NodeClaim Karpenter keeps for a node, named by the node’s owner', () => {
    // Arrange
    const owned = node('ip-10-0-1-10', POOL_LABELS, {
      ownerReferences: [
        { apiVersion: 'karpenter.sh/v1', kind: 'NodeClaim', name: 'default-x7k2p' },
      ],
    });
    // Act
    const claim = nodeClaimOfNode(owned, 'default');
    // Assert
    expect(claim).toMatchObject({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: {
        name: 'default-x7k2p',
        creationTimestamp: '2026-09-01T07:00:00Z',
        labels: POOL_LABELS,
      },
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'general' },
        requirements: [
          { key: 'karpenter.sh/nodepool', operator: 'In', values: ['default'] },
          { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.xlarge'] },
        ],
      },
      status: {
        providerID: 'aws:///us-east-1a/i-012aa',
        nodeName: 'ip-10-0-1-10',
        capacity: { cpu: '4', memory: '16Gi', pods: '58' },
        allocatable: { cpu: '3920m', memory: '14481Mi', pods: '58' },
      },
    });
    const conditions = (claim.status as { conditions: { type: string; status: string }[] })
      .conditions;
    expect(conditions.map((c) => [c.type, c.status])).toEqual([
      ['Launched', 'True'],
      ['Registered', 'True'],
      ['Initialized', 'True'],
    ]);
  });

  it('names the NodeClaim of a node without an owner after its pool, the same every time', () => {
    // Arrange
    const unowned = node('ip-10-0-1-11', POOL_LABELS);
    // Act
    const first = nodeClaimOfNode(unowned, 'default');
    const again = nodeClaimOfNode(unowned, 'default');
    const other = nodeClaimOfNode(node('ip-10-0-1-12', POOL_LABELS), 'default');
    // Assert
    const name = (claim: JsonObject) => (claim.metadata as { name: string }).name;
    expect(name(first)).toMatch(/^default-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(name(again)).toBe(name(first));
    expect(name(other)).not.toBe(name(first));
  });

  it('takes the dump’s own NodeClaim of a node, by providerID or node name', () => {
    // Arrange
    const byProvider = node('ip-10-0-1-10', POOL_LABELS);
    const byName = node('ip-10-0-1-123', POOL_LABELS);
    const dumped: JsonObject[] = [
      { metadata: { name: 'default-a' }, status: { providerID: 'aws:///us-east-1a/i-012aa' } },
      { metadata: { name: 'default-b' }, status: { nodeName: 'ip-10-0-1-123' } },
    ];
    // Act
    const claims = nodeClaimsOfNodes([byProvider, byName], dumped, POOLS);
    // Assert
    expect(claims).toEqual(dumped);
  });

  it('writes none for a node group’s node, nor for a node of a pool the files lack', () => {
    // Arrange
    const nodeGroup = node('ip-10-0-2-1', { 'node.kubernetes.io/instance-type': 'm5.xlarge' });
    const otherPool = node('ip-10-0-2-2', { ...POOL_LABELS, 'karpenter.sh/nodepool': 'gpu' });
    // Act
    const claims = nodeClaimsOfNodes([nodeGroup, otherPool], [], POOLS);
    // Assert
    expect(claims).toEqual([]);
  });
});
