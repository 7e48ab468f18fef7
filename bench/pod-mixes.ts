/**
 * The pod mixes the benchmark schedules. `diversePods` follows Karpenter's scheduling benchmark
 * (core: pkg/controllers/provisioning/scheduling/scheduling_benchmark_test.go): one sixth each
 * of generic pods, zonal spread, hostname spread, hostname pod affinity, zonal pod affinity and
 * hostname anti-affinity shared by all anti-affinity pods; label values and selectors drawn from
 * a–g; CPU from {100,250,500,1000,1500}m and memory from {100,256,512,1024,2048,4096}Mi.
 * `plainPods` has requests only: the mix the cost ratio is measured on.
 */
import { Label } from '../functions/domain/labels.ts';
import type { Pod, PodSpec } from '../functions/domain/pod.ts';
import { parseResources } from '../functions/domain/resources.ts';
import { pick, seededRandom } from './random.ts';

const CPU = ['100m', '250m', '500m', '1000m', '1500m'];
const MEMORY = ['100Mi', '256Mi', '512Mi', '1024Mi', '2048Mi', '4096Mi'];
const VALUES = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

type Kind =
  | 'generic'
  | 'zonal-spread'
  | 'hostname-spread'
  | 'hostname-affinity'
  | 'zonal-affinity'
  | 'anti-affinity';

interface Builder {
  readonly random: () => number;
  index: number;
}

function basePod(
  b: Builder,
  kind: Kind,
  labels: Record<string, string>,
  extra: Partial<PodSpec>,
): Pod {
  const name = `${kind}-${String(b.index++).padStart(6, '0')}`;
  const requests = parseResources({ cpu: pick(b.random, CPU), memory: pick(b.random, MEMORY) });
  return {
    uid: `bench/${name}`,
    namespace: 'bench',
    name,
    labels,
    annotations: {},
    deleting: false,
    creationTimestamp: '2026-01-01T00:00:00Z',
    spec: {
      containers: [{ name: 'app', requests }],
      initContainers: [],
      tolerations: [],
      topologySpreadConstraints: [],
      volumes: [],
      ...extra,
    },
  };
}

function makePod(b: Builder, kind: Kind): Pod {
  switch (kind) {
    case 'generic':
      return basePod(b, kind, { 'my-label': pick(b.random, VALUES) }, {});
    case 'zonal-spread':
    case 'hostname-spread': {
      const labels = { 'my-label': pick(b.random, VALUES) };
      const topologyKey = kind === 'zonal-spread' ? Label.zone : Label.hostname;
      const selector = { matchLabels: { 'my-label': pick(b.random, VALUES) } };
      return basePod(b, kind, labels, {
        topologySpreadConstraints: [
          { maxSkew: 1, topologyKey, whenUnsatisfiable: 'DoNotSchedule', labelSelector: selector },
        ],
      });
    }
    case 'hostname-affinity':
    case 'zonal-affinity': {
      const labels = { 'my-affininity': pick(b.random, VALUES) };
      const topologyKey = kind === 'zonal-affinity' ? Label.zone : Label.hostname;
      const term = {
        labelSelector: { matchLabels: { 'my-affininity': pick(b.random, VALUES) } },
        topologyKey,
      };
      return basePod(b, kind, labels, {
        affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } },
      });
    }
    case 'anti-affinity': {
      const labels = { app: 'nginx' };
      const term = { labelSelector: { matchLabels: labels }, topologyKey: Label.hostname };
      return basePod(b, kind, labels, {
        affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } },
      });
    }
  }
}

const DIVERSE: readonly Kind[] = [
  'generic',
  'zonal-spread',
  'hostname-spread',
  'hostname-affinity',
  'zonal-affinity',
  'anti-affinity',
];

export function diversePods(count: number, seed = 42): Pod[] {
  const b: Builder = { random: seededRandom(seed), index: 0 };
  const share = Math.floor(count / DIVERSE.length);
  const pods: Pod[] = [];
  for (const kind of DIVERSE) for (let i = 0; i < share; i++) pods.push(makePod(b, kind));
  while (pods.length < count) pods.push(makePod(b, 'generic'));
  return pods;
}

export function plainPods(count: number, seed = 7): Pod[] {
  const b: Builder = { random: seededRandom(seed), index: 0 };
  return Array.from({ length: count }, () => basePod(b, 'generic', {}, {}));
}
