/** Writes benchmark pods as `kubectl get -o yaml` would: one block-style List document. */
import type { NodePool } from '../functions/domain/node-pool.ts';
import type { Pod, PodAffinityTerm } from '../functions/domain/pod.ts';
import { formatResource } from '../functions/domain/resources.ts';

function labelsBlock(labels: Readonly<Record<string, string>>, indent: string): string {
  return Object.entries(labels)
    .map(([k, v]) => `${indent}${k}: ${v}`)
    .join('\n');
}

function termBlock(term: PodAffinityTerm, indent: string): string {
  return [
    `${indent}- labelSelector:`,
    `${indent}    matchLabels:`,
    labelsBlock(term.labelSelector?.matchLabels ?? {}, `${indent}      `),
    `${indent}  topologyKey: ${term.topologyKey}`,
  ].join('\n');
}

function affinityBlock(pod: Pod): string[] {
  const affinity = pod.spec.affinity;
  const out: string[] = [];
  const groups = [
    ['podAffinity', affinity?.podAffinity],
    ['podAntiAffinity', affinity?.podAntiAffinity],
  ] as const;
  for (const [name, group] of groups) {
    const terms = group?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    if (terms.length === 0) continue;
    out.push(
      '    affinity:',
      `      ${name}:`,
      '        requiredDuringSchedulingIgnoredDuringExecution:',
    );
    for (const term of terms) out.push(termBlock(term, '        '));
  }
  return out;
}

function spreadBlock(pod: Pod): string[] {
  if (pod.spec.topologySpreadConstraints.length === 0) return [];
  const out = ['    topologySpreadConstraints:'];
  for (const spread of pod.spec.topologySpreadConstraints) {
    out.push(
      `    - maxSkew: ${spread.maxSkew}`,
      `      topologyKey: ${spread.topologyKey}`,
      `      whenUnsatisfiable: ${spread.whenUnsatisfiable}`,
      '      labelSelector:',
      '        matchLabels:',
      labelsBlock(spread.labelSelector?.matchLabels ?? {}, '          '),
    );
  }
  return out;
}

function podBlock(pod: Pod): string {
  const requests = pod.spec.containers[0]?.requests ?? {};
  return [
    '- apiVersion: v1',
    '  kind: Pod',
    '  metadata:',
    `    name: ${pod.name}`,
    `    namespace: ${pod.namespace}`,
    `    uid: ${pod.uid.replace('/', '-')}`,
    `    creationTimestamp: "${pod.creationTimestamp ?? '2026-01-01T00:00:00Z'}"`,
    '    labels:',
    labelsBlock(pod.labels, '      '),
    '  spec:',
    ...affinityBlock(pod),
    '    containers:',
    '    - name: app',
    '      image: registry.example.com/app:1.0',
    '      resources:',
    '        requests:',
    ...Object.entries(requests)
      .filter(([name]) => name !== 'pods')
      .map(([name, amount]) => `          ${name}: ${formatResource(name, amount)}`),
    ...spreadBlock(pod),
    '  status:',
    '    phase: Pending',
  ].join('\n');
}

/** The NodePool as block YAML, the way kubectl prints it. */
function nodePoolBlock(nodePool: NodePool): string {
  const requirements = nodePool.spec.template.spec.requirements.flatMap((r) => [
    `        - key: ${r.key}`,
    `          operator: ${r.operator}`,
    '          values:',
    ...(r.values ?? []).map((v) => `          - "${v}"`),
  ]);
  return [
    '- apiVersion: karpenter.sh/v1',
    '  kind: NodePool',
    '  metadata:',
    `    name: ${nodePool.metadata.name}`,
    '  spec:',
    '    template:',
    '      spec:',
    '        nodeClassRef:',
    '          group: karpenter.k8s.aws',
    '          kind: EC2NodeClass',
    '          name: default',
    '        requirements:',
    ...requirements,
  ].join('\n');
}

export function podListYaml(nodePool: NodePool, pods: readonly Pod[]): string {
  return [
    'apiVersion: v1',
    'kind: List',
    'items:',
    nodePoolBlock(nodePool),
    ...pods.map(podBlock),
    '',
  ].join('\n');
}
