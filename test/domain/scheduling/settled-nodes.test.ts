/**
 * Offering pods to the nodes that run pods through the tree of what each branch has left places
 * every pod where asking each node in turn, first fit, places it, and leaves the nodes as that
 * leaves them: a node without room is passed over only because it would refuse.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Label } from '../../../functions/domain/labels.ts';
import type { Pod } from '../../../functions/domain/pod.ts';
import { fromLabels } from '../../../functions/domain/requirements/requirements.ts';
import { parseResources } from '../../../functions/domain/resources.ts';
import {
  ExistingNode,
  type ExistingNodeInput,
} from '../../../functions/domain/scheduling/existing-node.ts';
import { podRequests } from '../../../functions/domain/scheduling/pod-requests.ts';
import { SchedulingPod } from '../../../functions/domain/scheduling/scheduling-pod.ts';
import { SettledNodes } from '../../../functions/domain/scheduling/settled-nodes.ts';
import { Topology } from '../../../functions/domain/scheduling/topology/topology.ts';
import { topologyUniverse } from '../../../functions/domain/scheduling/topology/universe.ts';
import { isUnfit } from '../../../functions/domain/scheduling/unfit.ts';
import type { Taint } from '../../../functions/domain/taints.ts';
import { aPod } from '../../support/builders.ts';

const DEDICATED: Taint = { key: 'dedicated', value: 'batch', effect: 'NoSchedule' };
const GPU = 'nvidia.com/gpu';

interface NodeSpec {
  readonly cpu: number;
  readonly memoryGiB: number;
  readonly gpus: number;
  readonly tainted: boolean;
  readonly zone: 'a' | 'b';
}

interface PodSpec {
  readonly cpu: number;
  readonly memoryGiB: number;
  readonly gpus: number;
  readonly tolerates: boolean;
  readonly zone: 'a' | 'b' | undefined;
}

const aNodeSpec: fc.Arbitrary<NodeSpec> = fc.record({
  cpu: fc.integer({ min: 0, max: 8 }),
  memoryGiB: fc.integer({ min: 0, max: 16 }),
  gpus: fc.constantFrom(0, 0, 1),
  tainted: fc.boolean(),
  zone: fc.constantFrom('a', 'b'),
});

const aPodSpec: fc.Arbitrary<PodSpec> = fc.record({
  cpu: fc.integer({ min: 0, max: 4 }),
  memoryGiB: fc.integer({ min: 0, max: 8 }),
  gpus: fc.constantFrom(0, 0, 0, 1),
  tolerates: fc.boolean(),
  zone: fc.constantFrom(undefined, 'a', 'b'),
});

function nodeInput(spec: NodeSpec, i: number): ExistingNodeInput {
  const name = `node-${i}`;
  const bound = aPod({ name: `running-${i}`, nodeName: name });
  return {
    name,
    requirements: fromLabels({ [Label.hostname]: name, [Label.zone]: `zone-${spec.zone}` }),
    taints: spec.tainted ? [DEDICATED] : [],
    allocatable: parseResources({
      cpu: spec.cpu,
      memory: `${spec.memoryGiB}Gi`,
      pods: 110,
      ...(spec.gpus > 0 ? { [GPU]: spec.gpus } : {}),
    }),
    boundPods: [bound],
    boundRequests: {},
    pendingDaemons: {},
  };
}

function pendingPod(spec: PodSpec, i: number): Pod {
  return aPod({
    name: `pending-${i}`,
    cpu: String(spec.cpu),
    memory: `${spec.memoryGiB}Gi`,
    ...(spec.gpus > 0 ? { requests: { [GPU]: String(spec.gpus) } } : {}),
    ...(spec.tolerates ? { tolerations: [{ key: 'dedicated', operator: 'Exists' }] } : {}),
    ...(spec.zone === undefined ? {} : { nodeSelector: { [Label.zone]: `zone-${spec.zone}` } }),
  });
}

/** The same nodes and pods, fresh each time, so two ways of placing them can be compared. */
function world(nodeSpecs: readonly NodeSpec[], podSpecs: readonly PodSpec[]) {
  const inputs = nodeSpecs.map(nodeInput);
  const nodes = inputs.map((input) => new ExistingNode(input));
  const pods = podSpecs.map(pendingPod).map(
    (pod) =>
      new SchedulingPod({
        pod,
        requests: podRequests(pod),
        volumes: new Map(),
        ignorePreferences: false,
      }),
  );
  const topology = new Topology({
    universe: topologyUniverse(
      [],
      inputs,
      pods.map((p) => p.pod),
    ),
    boundPods: [],
    namespaces: new Map(),
  });
  return { nodes, pods, topology };
}

/** Where each node is left: what it has left and the pods it took. */
function leftOf(nodes: readonly ExistingNode[]) {
  return nodes.map((n) => ({ available: n.available, pods: n.pods.map((p) => p.pod.name) }));
}

describe('Class: SettledNodes', () => {
  it('places each pod where asking every node in turn places it', () => {
    fc.assert(
      fc.property(
        fc.array(aNodeSpec, { maxLength: 12 }),
        fc.array(aPodSpec, { minLength: 1, maxLength: 24 }),
        (nodeSpecs, podSpecs) => {
          // Prepare
          const inTurn = world(nodeSpecs, podSpecs);
          const byTree = world(nodeSpecs, podSpecs);
          const settled = new SettledNodes(byTree.nodes);

          // Act
          const treePlaced = byTree.pods.map((pod) => settled.place(pod, byTree.topology)?.name);
          const turnPlaced = inTurn.pods.map((pod) => {
            for (const node of inTurn.nodes) {
              const answer = node.canAdd(pod, inTurn.topology);
              if (isUnfit(answer)) continue;
              node.add(pod, answer, inTurn.topology);
              return node.name;
            }
            return undefined;
          });

          // Assess
          expect(treePlaced).toEqual(turnPlaced);
          expect(leftOf(byTree.nodes)).toEqual(leftOf(inTurn.nodes));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('asks no node that lacks room for the pod', () => {
    // Prepare
    const full = world(
      [
        { cpu: 1, memoryGiB: 16, gpus: 0, tainted: false, zone: 'a' },
        { cpu: 8, memoryGiB: 1, gpus: 0, tainted: false, zone: 'b' },
      ],
      [{ cpu: 2, memoryGiB: 2, gpus: 0, tolerates: false, zone: undefined }],
    );
    const settled = new SettledNodes(full.nodes);
    let asked = 0;
    for (const node of full.nodes) {
      const canAdd = node.canAdd.bind(node);
      node.canAdd = (pod, topology) => {
        asked += 1;
        return canAdd(pod, topology);
      };
    }
    const [pod] = full.pods;
    if (pod === undefined) throw new Error('no pod');

    // Act
    const placed = settled.place(pod, full.topology);

    // Assess
    expect(placed).toBeUndefined();
    // Between them the nodes have 8 CPUs and 16 GiB left, but neither has both: neither is asked.
    expect(asked).toBe(0);
  });
});
