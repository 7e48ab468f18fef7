import { describe, expect, it } from 'vitest';
import { hasCondition, type NodeClaim } from '../../../functions/domain/node-claim.ts';
import { parseNodeClaim } from '../../../functions/manifests/karpenter/node-claim.ts';
import { aMinimalNodeClaim } from '../../support/karpenter-documents.ts';
import { documentOf, NODE_CLAIM_DUMP } from './documents.ts';
import { withField } from './with-field.ts';

describe('parseNodeClaim', () => {
  it('reads a NodeClaim as kubectl prints it, status included', () => {
    // Prepare
    const doc = documentOf(NODE_CLAIM_DUMP);

    // Act
    const claim: NodeClaim = parseNodeClaim(doc);

    // Assess
    expect(claim.metadata.labels?.['node.kubernetes.io/instance-type']).toBe('c6g.large');
    expect(claim.spec.requirements.map((r) => r.key)).toEqual([
      'karpenter.sh/nodepool',
      'karpenter.k8s.aws/ec2nodeclass',
      'kubernetes.io/arch',
      'karpenter.sh/capacity-type',
      'node.kubernetes.io/instance-type',
    ]);
    expect(claim.spec.resources?.requests).toEqual({ cpu: '210m', memory: '75Mi', pods: '4' });
    expect(claim.status?.allocatable?.['vpc.amazonaws.com/pod-eni']).toBe('9');
    expect(claim.status?.providerID).toBe('aws:///us-west-2c/i-0a1b2c3d4e5f67890');
    expect(hasCondition(claim, 'Initialized')).toBe(true);
  });

  it('keeps the status fields Karpenter writes beyond the ones modelled', () => {
    // Prepare
    const doc = documentOf(NODE_CLAIM_DUMP);

    // Act
    const claim = parseNodeClaim(doc);

    // Assess
    expect(claim.status?.lastPodEventTime).toBe('2024-08-07T15:20:49Z');
    expect(claim.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'NodePool',
      name: 'default',
    });
    expect(claim.metadata.finalizers).toEqual(['karpenter.sh/termination']);
  });

  it('defaults expireAfter to 720h', () => {
    // Prepare
    const doc = aMinimalNodeClaim();

    // Act
    const claim = parseNodeClaim(doc);

    // Assess
    expect(claim.spec.expireAfter).toBe('720h');
  });

  it('accepts a claim being deleted with its termination deadline', () => {
    // Prepare
    const deleting = withField(
      aMinimalNodeClaim(),
      ['metadata', 'deletionTimestamp'],
      '2024-08-08T10:00:00Z',
    );
    const doc = withField(deleting, ['spec', 'terminationGracePeriod'], '48h');

    // Act
    const claim = parseNodeClaim(doc);

    // Assess
    expect(claim.metadata.deletionTimestamp).toBe('2024-08-08T10:00:00Z');
    expect(claim.spec.terminationGracePeriod).toBe('48h');
  });
});
