/** Ported from core: pkg/controllers/disruption/drift_test.go and nodeclaim/expiration/suite_test.go. */
import { describe, expect, it } from 'vitest';
import { computeTemplateHash } from '../../../functions/domain/disruption/template-hash.ts';
import type { EC2NodeClass } from '../../../functions/domain/node-class.ts';
import type { NodePool } from '../../../functions/domain/node-pool.ts';
import { aPod } from '../../support/builders.ts';
import {
  aBudget,
  aDisruptionPool,
  aPoolNode,
  disruptionFor,
  fates,
  type NodeOptions,
} from '../../support/disruption-builders.ts';

const POOL = aDisruptionPool({ budgets: [{ nodes: '100%' }] });
const CHANGED: NodePool = {
  ...POOL,
  spec: { ...POOL.spec, template: { ...POOL.spec.template, metadata: { labels: { team: 'b' } } } },
};

/** A node stamped with POOL's template hash: drifted against CHANGED. */
function stampedNode(options: NodeOptions) {
  const { hash, version } = computeTemplateHash(POOL);
  return aPoolNode({
    ...options,
    claimAnnotations: {
      'karpenter.sh/nodepool-hash': hash,
      'karpenter.sh/nodepool-hash-version': version,
    },
  });
}

const busy = (node: string) => aPod({ nodeName: node, cpu: '1500m', labels: { app: 'web' } });

describe('drift', () => {
  it('replaces one drifted node per pass, with its replacement named', () => {
    const plan = disruptionFor({
      nodes: [stampedNode({ name: 'a', cpu: 2 }), stampedNode({ name: 'b', cpu: 2 })],
      pods: [busy('a'), busy('b')],
      nodePools: [CHANGED],
    });
    expect(plan.decisions).toHaveLength(1);
    expect(plan.decisions[0]).toMatchObject({ method: 'drift', reason: 'Drifted', nodes: ['a'] });
    expect(plan.decisions[0]?.message).toMatch(/^drifted \(NodePoolDrifted/);
    expect(plan.decisions[0]?.replacements).toHaveLength(1);
    expect(plan.staying).toEqual([expect.objectContaining({ node: 'b', code: 'Later' })]);
  });

  it('takes empty drifted nodes first, then the oldest', () => {
    const nodes = [
      stampedNode({ name: 'old', cpu: 2, created: '2026-05-10T00:00:00Z' }),
      stampedNode({ name: 'new', cpu: 2, created: '2026-05-20T00:00:00Z' }),
    ];
    const oldest = disruptionFor({ nodes, pods: [busy('old'), busy('new')], nodePools: [CHANGED] });
    expect(oldest.decisions[0]?.nodes).toEqual(['old']);
    const emptyFirst = disruptionFor({ nodes, pods: [busy('old')], nodePools: [CHANGED] });
    // The empty drifted node goes through emptiness (as Karpenter's emptiness runs first).
    expect(fates(emptyFirst)).toEqual({ new: 'emptiness', old: 'drift' });
  });

  it('respects the Drifted budget', () => {
    const pool: NodePool = {
      ...CHANGED,
      spec: {
        ...CHANGED.spec,
        disruption: {
          budgets: [
            { nodes: '0', reasons: ['Drifted'] },
            { nodes: '0', reasons: ['Underutilized'] },
          ],
        },
      },
    };
    const plan = disruptionFor({
      nodes: [stampedNode({ name: 'a', cpu: 2 }), stampedNode({ name: 'b', cpu: 8 })],
      pods: [busy('a'), aPod({ nodeName: 'b', cpu: '8' })],
      nodePools: [pool],
    });
    expect(plan.decisions.map((d) => d.method)).not.toContain('drift');
    expect(plan.staying.find((s) => s.node === 'a')?.reason).toMatch(
      /^drifted .* but over the Drifted budget/,
    );
  });

  it('waits for a PDB, unless the pool bounds the drain with a terminationGracePeriod', () => {
    const blocked = {
      nodes: [stampedNode({ name: 'a', cpu: 2 })],
      pods: [busy('a')],
      podDisruptionBudgets: [
        aBudget({ name: 'web', matchLabels: { app: 'web' }, disruptionsAllowed: 0 }),
      ],
    };
    expect(fates(disruptionFor({ ...blocked, nodePools: [CHANGED] }))).toEqual({
      a: 'stay:PodsBlock',
    });
    const bounded: NodePool = {
      ...CHANGED,
      spec: {
        ...CHANGED.spec,
        template: {
          ...CHANGED.spec.template,
          spec: { ...CHANGED.spec.template.spec, terminationGracePeriod: '1h' },
        },
      },
    };
    // The hash covers terminationGracePeriod, so the node is drifted against this pool too.
    expect(fates(disruptionFor({ ...blocked, nodePools: [bounded] }))).toEqual({ a: 'drift' });
  });

  it('replaces a node launched into a subnet its class no longer selects, where its instance is known', () => {
    // Prepare
    const nodeClass: EC2NodeClass = {
      metadata: { name: 'default' },
      spec: {},
      status: { subnets: [{ id: 'subnet-new', zone: 'test-zone-a' }] },
    };
    const node = stampedNode({ name: 'a', cpu: 2 });
    const network = { subnetId: 'subnet-old', securityGroupIds: ['sg-nodes'] };
    const drifting = {
      nodes: [node],
      pods: [busy('a')],
      nodePools: [POOL],
      nodeClasses: [nodeClass],
    };

    // Act
    const known = disruptionFor({
      ...drifting,
      networks: new Map([[node.nodeClaim.metadata.name, network]]),
    });
    const unknown = disruptionFor(drifting);

    // Assess
    expect(known.decisions[0]).toMatchObject({ method: 'drift', nodes: ['a'] });
    expect(known.decisions[0]?.message).toMatch(/^drifted \(SubnetDrift: subnet subnet-old/);
    expect(unknown.decisions.map((d) => d.method)).not.toContain('drift');
  });
});

describe('expiration', () => {
  it('deletes a node past expireAfter whatever its pods and budgets say', () => {
    const pool = aDisruptionPool(
      { budgets: [{ nodes: '0' }] },
      { template: { expireAfter: '24h' } },
    );
    const plan = disruptionFor({
      nodes: [
        aPoolNode({ name: 'expired', created: '2026-05-30T00:00:00Z' }),
        aPoolNode({ name: 'young', created: '2026-06-01T00:00:00Z' }),
      ],
      pods: [
        { ...busy('expired'), annotations: { 'karpenter.sh/do-not-disrupt': 'true' } },
        busy('young'),
      ],
      nodePools: [pool],
      podDisruptionBudgets: [
        aBudget({ name: 'web', matchLabels: { app: 'web' }, disruptionsAllowed: 0 }),
      ],
    });
    expect(plan.decisions).toEqual([
      expect.objectContaining({
        method: 'expiration',
        reason: 'Expired',
        nodes: ['expired'],
        replacements: [],
        savingsPerHour: 0,
        message: 'expired: 60h old, past the expireAfter of 24h; its pods fit on other nodes',
      }),
    ]);
  });

  it('never expires nodes of a pool whose expireAfter is Never', () => {
    const pool = aDisruptionPool({}, { template: { expireAfter: 'Never' } });
    const plan = disruptionFor({
      nodes: [aPoolNode({ name: 'ancient', created: '2020-01-01T00:00:00Z' })],
      pods: [busy('ancient')],
      nodePools: [pool],
    });
    expect(plan.decisions.map((d) => d.method)).not.toContain('expiration');
  });

  it('expires after 720h by default', () => {
    const plan = disruptionFor({
      nodes: [aPoolNode({ name: 'month', created: '2026-05-01T00:00:00Z' })],
      pods: [busy('month')],
    });
    expect(plan.decisions[0]?.method).toBe('expiration');
  });
});
