import { describe, expect, it } from 'vitest';
import { driftOf } from '../../../functions/domain/disruption/drift-detection.ts';
import {
  computeTemplateHash,
  NODEPOOL_HASH_VERSION,
  templateHash,
} from '../../../functions/domain/disruption/template-hash.ts';
import { Label } from '../../../functions/domain/labels.ts';
import type { EC2NodeClass } from '../../../functions/domain/node-class.ts';
import type { NodePool } from '../../../functions/domain/node-pool.ts';
import { aCatalog, aDisruptionPool, aPoolNode } from '../../support/disruption-builders.ts';

const HOUR = 3_600_000;

function withLabels(pool: NodePool, labels: Record<string, string>): NodePool {
  return {
    ...pool,
    spec: { ...pool.spec, template: { ...pool.spec.template, metadata: { labels } } },
  };
}

function stamped(pool: NodePool) {
  const { hash, version } = computeTemplateHash(pool);
  return { 'karpenter.sh/nodepool-hash': hash, 'karpenter.sh/nodepool-hash-version': version };
}

describe('template hash', () => {
  const pool = aDisruptionPool({});

  it('ignores requirements, budgets and the order of lists', () => {
    const other: NodePool = {
      ...pool,
      spec: {
        ...pool.spec,
        disruption: { budgets: [{ nodes: '0' }] },
        template: {
          ...pool.spec.template,
          spec: { ...pool.spec.template.spec, requirements: [] },
        },
      },
    };
    expect(computeTemplateHash(other)).toEqual(computeTemplateHash(pool));
    const taints = (order: number[]) =>
      aDisruptionPool(
        {},
        {
          template: {
            taints: order.map((i) => ({ key: `k${i}`, effect: 'NoSchedule' as const })),
          },
        },
      );
    expect(computeTemplateHash(taints([1, 2]))).toEqual(computeTemplateHash(taints([2, 1])));
  });

  it('changes with labels, taints and expireAfter', () => {
    const base = computeTemplateHash(pool).hash;
    expect(computeTemplateHash(withLabels(pool, { team: 'a' })).hash).not.toBe(base);
    expect(
      computeTemplateHash(aDisruptionPool({}, { template: { expireAfter: '24h' } })).hash,
    ).not.toBe(base);
  });

  it('uses the hash a NodePool carries from Karpenter', () => {
    const carried: NodePool = {
      ...pool,
      metadata: {
        name: 'default',
        annotations: {
          'karpenter.sh/nodepool-hash': '123',
          'karpenter.sh/nodepool-hash-version': 'v3',
        },
      },
    };
    expect(templateHash(carried)).toEqual({ hash: '123', version: 'v3' });
    expect(templateHash(pool).version).toBe(NODEPOOL_HASH_VERSION);
  });
});

describe('drift detection', () => {
  const catalog = aCatalog();
  const pool = aDisruptionPool({});

  function drift(options: {
    pool?: NodePool;
    claimAnnotations?: Record<string, string>;
    labels?: Record<string, string>;
    ageMs?: number;
    nodeClass?: EC2NodeClass;
    imageID?: string;
  }) {
    const { node, nodeClaim } = aPoolNode({
      name: 'n1',
      claimAnnotations: options.claimAnnotations ?? stamped(pool),
      ...(options.labels === undefined ? {} : { labels: options.labels }),
      ...(options.imageID === undefined ? {} : { imageID: options.imageID }),
    });
    return driftOf({
      pool: options.pool ?? pool,
      labels: node.labels,
      claim: nodeClaim,
      instanceTypes: catalog,
      ageMs: options.ageMs ?? 2 * HOUR,
      ...(options.nodeClass === undefined ? {} : { nodeClass: options.nodeClass }),
    });
  }

  it('finds nothing on a node made from the current template', () => {
    expect(drift({})).toBeUndefined();
  });

  it('finds a changed template (NodePoolDrifted)', () => {
    expect(drift({ pool: withLabels(pool, { team: 'b' }) })?.reason).toBe('NodePoolDrifted');
  });

  it('does not call a claim of another hash version drifted', () => {
    const old = { 'karpenter.sh/nodepool-hash': '1', 'karpenter.sh/nodepool-hash-version': 'v2' };
    expect(drift({ claimAnnotations: old })).toBeUndefined();
  });

  it('finds labels that no longer meet the requirements (RequirementsDrifted)', () => {
    const spotOnly = aDisruptionPool(
      {},
      {
        template: { requirements: [{ key: Label.capacityType, operator: 'In', values: ['spot'] }] },
      },
    );
    const found = drift({ pool: spotOnly, claimAnnotations: stamped(spotOnly) });
    expect(found?.reason).toBe('RequirementsDrifted');
  });

  it('finds an instance type gone from the catalog, but only after an hour', () => {
    expect(drift({ labels: { [Label.instanceType]: 'gone.large' } })?.reason).toBe(
      'InstanceTypeNotFound',
    );
    expect(
      drift({ labels: { [Label.instanceType]: 'gone.large' }, ageMs: HOUR / 2 }),
    ).toBeUndefined();
  });

  it('finds a node on an AMI its class no longer selects (AMIDrift)', () => {
    const nodeClass: EC2NodeClass = {
      metadata: { name: 'default' },
      spec: {},
      status: { amis: [{ id: 'ami-new' }] },
    };
    expect(drift({ nodeClass, imageID: 'ami-old' })?.reason).toBe('AMIDrift');
    expect(drift({ nodeClass, imageID: 'ami-new' })).toBeUndefined();
  });
});
