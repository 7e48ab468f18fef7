/**
 * `nodesmith disruption` under the `Balanced` consolidation policy (docs/disruption.md,
 * "Balanced"; core: disruption/balanced.go): the same oversized node is replaced under
 * `WhenEmptyOrUnderutilized`, and under `Balanced` only when moving its pods is worth the saving.
 * Pods weigh as Karpenter weighs them: high-priority ones count ten times.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DisruptionReport } from '../../functions/use-cases/disruption/disruption-report.ts';
import { runCliInProcess } from '../support/cli-in-process.ts';
import { aMinimalNodeClass, aNodePoolDocument } from '../support/karpenter-documents.ts';

const NOW = '2026-10-06T10:00:00Z';
const CREATED = '2026-10-05T10:00:00Z';
const ZONE = 'us-east-1a';

function nodePool(policy: 'Balanced' | 'WhenEmptyOrUnderutilized') {
  return aNodePoolDocument({
    name: 'web',
    requirements: {
      'karpenter.k8s.aws/instance-family': ['m5'],
      'karpenter.sh/capacity-type': ['on-demand'],
      'kubernetes.io/arch': ['amd64'],
    },
    disruption: {
      consolidationPolicy: policy,
      consolidateAfter: '0s',
      budgets: [{ nodes: '100%' }],
    },
  });
}

/** The class, resolved to one subnet in the nodes' zone. */
function nodeClass() {
  return { ...aMinimalNodeClass(), status: { subnets: [{ id: 'subnet-0a1', zone: ZONE }] } };
}

/** A NodeClaim and its initialized Node of pool `web`, optionally kept from disruption. */
function node(name: string, type: string, cpu: string, keep = false) {
  const labels = {
    'karpenter.sh/nodepool': 'web',
    'karpenter.sh/capacity-type': 'on-demand',
    'karpenter.k8s.aws/instance-family': 'm5',
    'node.kubernetes.io/instance-type': type,
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/os': 'linux',
    'topology.kubernetes.io/zone': ZONE,
  };
  const providerID = `aws:///${ZONE}/i-0${name.replace(/[^0-9a-f]/g, '').padEnd(16, '0')}`;
  const allocatable = { cpu, memory: '7Gi', pods: '29' };
  const initialized = { type: 'Initialized', status: 'True', lastTransitionTime: CREATED };
  return [
    {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: `web-${name}`, creationTimestamp: CREATED, labels },
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [],
      },
      status: { nodeName: name, providerID, allocatable, conditions: [initialized] },
    },
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        creationTimestamp: CREATED,
        labels: {
          ...labels,
          'karpenter.sh/initialized': 'true',
          'karpenter.sh/registered': 'true',
        },
        annotations: keep ? { 'karpenter.sh/do-not-disrupt': 'true' } : {},
      },
      spec: { providerID },
      status: {
        allocatable,
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: CREATED }],
      },
    },
  ];
}

function pod(name: string, nodeName: string, cpu: string, priority?: number) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'shop',
      creationTimestamp: CREATED,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web-5d8f',
          uid: 'rs-1',
          controller: true,
        },
      ],
    },
    spec: {
      nodeName,
      containers: [
        { name: 'app', image: 'nginx', resources: { requests: { cpu, memory: '128Mi' } } },
      ],
      ...(priority === undefined ? {} : { priority }),
    },
    status: { phase: 'Running' },
  };
}

/**
 * An m5.2xlarge ($0.384) running three small pods, its pods fitting an m5.large ($0.096), beside
 * four full m5.large nodes kept from disruption: the replacement saves 37.5 % of the pool's cost.
 */
function cluster(policy: 'Balanced' | 'WhenEmptyOrUnderutilized', priority?: number): string {
  const full = ['full-0', 'full-1', 'full-2', 'full-3'];
  const items = [
    nodePool(policy),
    nodeClass(),
    ...node('big', 'm5.2xlarge', '7910m'),
    ...full.flatMap((name) => node(name, 'm5.large', '1930m', true)),
    ...['a', 'b', 'c'].map((id) => pod(`web-${id}`, 'big', '100m', priority)),
    ...full.map((name) => pod(`busy-${name}`, name, '1900m')),
  ];
  const file = join(mkdtempSync(join(tmpdir(), 'nodesmith-balanced-')), 'cluster.json');
  writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  return file;
}

async function disruption(file: string): Promise<DisruptionReport> {
  const result = await runCliInProcess(['disruption', '-f', file, '--now', NOW, '-o', 'json']);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as DisruptionReport;
}

describe('nodesmith disruption with a Balanced NodePool', () => {
  it('approves replacing the oversized node, giving the score', async () => {
    // Act
    const report = await disruption(cluster('Balanced'));

    // Assess: 4 of the pool's 12 disruption (1 a node, 1 a pod) for 37.5 % of its cost
    expect(report.decisions).toEqual([
      expect.objectContaining({
        method: 'consolidation-replace',
        nodes: ['big'],
        replacement: expect.objectContaining({ instanceType: 'm5.large' }),
        scores: [
          expect.objectContaining({
            nodePool: 'web',
            nodes: ['big'],
            savingsFraction: expect.closeTo(0.375),
            disruptionFraction: expect.closeTo(4 / 12),
            k: 2,
          }),
        ],
        message: expect.stringMatching(
          /; Balanced NodePool web: score 1\.1\d >= threshold 0\.50 \(k: 2, savings 37\.5%, disruption 33\.3%\)$/,
        ),
      }),
    ]);
  });

  it('refuses the replacement WhenEmptyOrUnderutilized takes when its pods are high priority', async () => {
    // Prepare: each pod at priority one billion weighs 10, so the node is 31 of the pool's 39
    const file = (policy: 'Balanced' | 'WhenEmptyOrUnderutilized') =>
      cluster(policy, 1_000_000_000);

    // Act
    const underutilized = await disruption(file('WhenEmptyOrUnderutilized'));
    const balanced = await disruption(file('Balanced'));

    // Assess
    expect(underutilized.decisions.map((d) => [d.method, d.nodes])).toEqual([
      ['consolidation-replace', ['big']],
    ]);
    expect(balanced.decisions).toEqual([]);
    expect(balanced.staying.find((s) => s.node === 'big')).toEqual({
      node: 'big',
      code: 'ScoreBelowThreshold',
      reason: expect.stringMatching(
        /^Balanced: replaced by m5\.large .*, but score 0\.47 < threshold 0\.50 \(k: 2, savings 37\.5%, disruption 79\.5%\)$/,
      ),
    });
  });
});
