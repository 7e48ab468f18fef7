/**
 * `static-pools`: beside the burst's `general` pool, a static NodePool `ingress` keeps three
 * on-demand nodes from the start, whatever the pods ask (core: pkg/controllers/static). It is
 * scaled to five once the burst has settled, then down to two: the burst's pods never get a node
 * of it launched for them, though the stand-in kube-scheduler may bind them to its nodes, and
 * its surplus drains as any node going does.
 */
import { burstScenario } from './burst.ts';
import { SCENARIO_POOLS_YAML } from './pools.yaml.ts';
import type { Scenario } from './scenario.ts';

const AFTER_BURST = 240;
const SCALED_DOWN_AT = 480;

/** The static pool with `replicas` nodes: current c types on demand, of the scenario's class. */
function staticPoolYaml(replicas: number): string {
  return `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: ingress
spec:
  replicas: ${replicas}
  template:
    metadata:
      labels:
        team: edge
    spec:
      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }
      requirements:
        - { key: karpenter.sh/capacity-type, operator: In, values: ["on-demand"] }
        - { key: karpenter.k8s.aws/instance-category, operator: In, values: ["c"] }
        - { key: karpenter.k8s.aws/instance-generation, operator: Gt, values: ["5"] }
  limits:
    nodes: "6"
`;
}

const scaledTo = (replicas: number) => ({
  file: `scenario:static-pools/ingress-${replicas}.yaml`,
  text: staticPoolYaml(replicas),
});

export function staticPoolsScenario(seed: number, pods = 120): Scenario {
  const burst = burstScenario(seed, pods);
  return {
    ...burst,
    name: 'static-pools',
    manifests: [
      { file: 'scenario:static-pools/pools.yaml', text: SCENARIO_POOLS_YAML },
      scaledTo(3),
    ],
    steps: [
      ...burst.steps,
      {
        at: AFTER_BURST,
        description: 'NodePool ingress scaled to 5 replicas',
        pods: [],
        apply: [scaledTo(5)],
      },
      {
        at: SCALED_DOWN_AT,
        description: 'NodePool ingress scaled to 2 replicas',
        pods: [],
        apply: [scaledTo(2)],
      },
    ],
    maxSeconds: 1500,
    quietSeconds: 120,
  };
}
