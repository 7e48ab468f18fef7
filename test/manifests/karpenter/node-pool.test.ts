import { describe, expect, it } from 'vitest';
import type { NodePool } from '../../../functions/domain/node-pool.ts';
import { parseNodePool } from '../../../functions/manifests/karpenter/node-pool.ts';
import { aMinimalNodePool } from '../../support/karpenter-documents.ts';
import {
  DOCS_NODE_POOL,
  DOCS_STATIC_NODE_POOL,
  documentOf,
  documentsOf,
  EXAMPLE_NODE_TTLS,
  REFERENCE_MANIFESTS,
} from './documents.ts';
import { withField } from './with-field.ts';

describe('parseNodePool', () => {
  it('reads the reference NodePool with every field it sets', () => {
    // Prepare
    const [doc] = documentsOf(REFERENCE_MANIFESTS);

    // Act
    const pool = parseNodePool(doc);

    // Assess
    expect(pool.spec.weight).toBe(10);
    expect(pool.spec.limits).toEqual({ cpu: '1000', memory: '1000Gi' });
    expect(pool.spec.disruption.budgets).toEqual([
      { nodes: '10%' },
      { nodes: '0', reasons: ['Underutilized'], schedule: '0 9 * * mon-fri', duration: '8h' },
    ]);
    expect(pool.spec.template.spec.requirements).toHaveLength(5);
    expect(pool.spec.template.spec.requirements[3]).toEqual({
      key: 'karpenter.k8s.aws/instance-family',
      operator: 'Exists',
      minValues: 5,
    });
    expect(pool.spec.template.spec.startupTaints).toEqual([
      { key: 'node.cilium.io/agent-not-ready', value: 'true', effect: 'NoExecute' },
    ]);
    expect(pool.spec.template.spec.terminationGracePeriod).toBe('48h');
  });

  it('reads the documented NodePool with Gte, reserved capacity, taints and status', () => {
    // Prepare
    const doc = documentOf(DOCS_NODE_POOL);

    // Act
    const pool = parseNodePool(doc);

    // Assess
    expect(pool.spec.template.spec.requirements[4]).toEqual({
      key: 'karpenter.k8s.aws/instance-generation',
      operator: 'Gte',
      values: ['3'],
    });
    expect(pool.spec.template.spec.expireAfter).toBe('Never');
    expect(pool.spec.template.metadata?.annotations).toEqual({ 'example.com/owner': 'my-team' });
    expect(pool.spec.limits).toEqual({ cpu: '1000', memory: '1000Gi', nodes: 10 });
    expect(pool.status?.nodes).toBe(5);
    expect(pool.status?.resources).toEqual({
      cpu: '20',
      memory: '8192Mi',
      'ephemeral-storage': '100Gi',
    });
    expect(pool.status?.conditions?.[0]).toMatchObject({
      type: 'Initialized',
      status: 'False',
      observedGeneration: 1,
      reason: 'NodeClaimNotLaunched',
    });
  });

  it('reads a static NodePool whose only limit is a node count', () => {
    // Prepare
    const doc = documentOf(DOCS_STATIC_NODE_POOL);

    // Act
    const pool = parseNodePool(doc);

    // Assess
    expect(pool.spec.replicas).toBe(10);
    expect(pool.spec.limits).toEqual({ nodes: 15 });
    expect(pool.spec.disruption.budgets).toEqual([{ nodes: '20%' }]);
  });

  it('reads the node-ttls example with a WhenEmpty policy', () => {
    // Prepare
    const [doc] = documentsOf(EXAMPLE_NODE_TTLS);

    // Act
    const pool = parseNodePool(doc);

    // Assess
    expect(pool.spec.template.spec.expireAfter).toBe('168h');
    expect(pool.spec.disruption).toEqual({
      consolidationPolicy: 'WhenEmpty',
      consolidateAfter: '60s',
      budgets: [{ nodes: '10%' }],
    });
    expect(pool.metadata.annotations).toEqual({
      'kubernetes.io/description': 'General purpose NodePool for generic workloads',
    });
  });

  it('fills in the CRD defaults when disruption and expiry are left out', () => {
    // Prepare
    const doc = aMinimalNodePool();

    // Act
    const pool = parseNodePool(doc);

    // Assess
    expect(pool.spec.disruption).toEqual({
      consolidateAfter: '0s',
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
      budgets: [{ nodes: '10%' }],
    });
    expect(pool.spec.template.spec.expireAfter).toBe('720h');
  });

  it('defaults the policy and budgets inside a disruption block that sets only consolidateAfter', () => {
    // Prepare
    const doc = withField(aMinimalNodePool(), ['spec', 'disruption'], {
      consolidateAfter: 'Never',
    });

    // Act
    const pool = parseNodePool(doc);

    // Assess
    expect(pool.spec.disruption).toEqual({
      consolidateAfter: 'Never',
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
      budgets: [{ nodes: '10%' }],
    });
  });

  it('defaults a budget without nodes to 10%', () => {
    // Prepare
    const doc = withField(aMinimalNodePool(), ['spec', 'disruption'], {
      consolidateAfter: '30s',
      budgets: [{ reasons: ['Drifted'] }],
    });

    // Act
    const pool = parseNodePool(doc);

    // Assess
    expect(pool.spec.disruption.budgets).toEqual([{ nodes: '10%', reasons: ['Drifted'] }]);
  });

  it('accepts the Balanced consolidation policy', () => {
    // Prepare
    const doc = withField(aMinimalNodePool(), ['spec', 'disruption'], {
      consolidateAfter: '5m',
      consolidationPolicy: 'Balanced',
    });

    // Act
    const pool = parseNodePool(doc);

    // Assess
    expect(pool.spec.disruption.consolidationPolicy).toBe('Balanced');
  });

  it('accepts beta label keys in requirements under their stable names', () => {
    // Prepare
    const doc = withField(
      aMinimalNodePool(),
      ['spec', 'template', 'spec', 'requirements'],
      [
        { key: 'beta.kubernetes.io/arch', operator: 'In', values: ['arm64'] },
        {
          key: 'failure-domain.beta.kubernetes.io/zone',
          operator: 'NotIn',
          values: ['us-east-1e'],
        },
      ],
    );

    // Act
    const pool = parseNodePool(doc);

    // Assess
    expect(pool.spec.template.spec.requirements.map((r) => r.key)).toEqual([
      'beta.kubernetes.io/arch',
      'failure-domain.beta.kubernetes.io/zone',
    ]);
  });

  it('keeps the metadata the apiserver adds, including fields it does not model', () => {
    // Prepare
    const doc = withField(aMinimalNodePool(), ['metadata'], {
      name: 'default',
      uid: '2a5f0b8e-4f6c-4f5e-8c2d-1b9e7a3d6f42',
      resourceVersion: '4711',
      generation: 3,
      creationTimestamp: '2024-08-07T15:19:49Z',
      annotations: { 'karpenter.sh/nodepool-hash': '4010951020068392240' },
      managedFields: [{ manager: 'kubectl', operation: 'Apply' }],
      someFutureField: 'kept',
    });

    // Act
    const pool = parseNodePool(doc);

    // Assess
    expect(pool.metadata).toMatchObject({
      name: 'default',
      generation: 3,
      managedFields: [{ manager: 'kubectl', operation: 'Apply' }],
      someFutureField: 'kept',
    });
  });

  it('treats creationTimestamp: null as unset', () => {
    // Prepare
    const doc = withField(aMinimalNodePool(), ['metadata', 'creationTimestamp'], null);

    // Act
    const pool = parseNodePool(doc);

    // Assess
    expect(pool.metadata.creationTimestamp).toBeUndefined();
  });

  it('reads keys left empty in YAML as not set, so their defaults apply', () => {
    // Prepare
    const doc = documentOf(`
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: default
spec:
  disruption:
  limits:
  template:
    metadata:
    spec:
      taints:
      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }
      requirements: []
`);

    // Act
    const pool = parseNodePool(doc);

    // Assess
    expect(pool.spec.disruption.budgets).toEqual([{ nodes: '10%' }]);
    expect(pool.spec.template.spec.taints).toBeUndefined();
    expect(pool.spec.limits).toBeUndefined();
  });

  it('leaves the document it reads unchanged', () => {
    // Prepare
    const doc = aMinimalNodePool();
    const before = structuredClone(doc);

    // Act
    parseNodePool(doc);

    // Assess
    expect(doc).toEqual(before);
  });

  it('gives a document the domain can use as a NodePool', () => {
    // Prepare
    const [doc] = documentsOf(REFERENCE_MANIFESTS);

    // Act
    const pool: NodePool = parseNodePool(doc);

    // Assess
    expect(pool.metadata.name).toBe('default');
  });
});
