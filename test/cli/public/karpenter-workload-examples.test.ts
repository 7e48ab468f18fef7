/**
 * `nodesmith plan`, run in the test's process, on every workload of Karpenter v1.14.1's
 * `examples/workloads`, scaled up as a user scales them, with the example NodePool it
 * demonstrates: each pod lands on a node that holds its requests and meets its selectors, and
 * what the workload asks beyond that holds in the plan (accelerators, capacity type, the
 * preferred architecture, topology spread, the pool's cpu limit).
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../support/cli-in-process.ts';
import {
  documentsOf,
  poolExample,
  WORKLOAD_EXAMPLES,
  workloadExample,
  writeExample,
} from '../../support/karpenter-examples.ts';

interface PlannedClaim {
  readonly nodePool: string;
  readonly zone: string;
  readonly capacityType: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly pods: readonly string[];
}

interface Plan {
  readonly nodeClaims: readonly PlannedClaim[];
  readonly unschedulable: readonly { readonly pod: string; readonly reason: string }[];
}

const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'];

/** Every example workload asks 1 cpu and 256M of memory per pod. */
const POD_CPU = 1;
const POD_MEMORY_BYTES = 256e6;

interface WorkloadCase {
  readonly workload: string;
  /** What `kubectl scale` sets; the example's own count when absent. */
  readonly replicas?: number;
  /** The example NodePool and EC2NodeClass it runs on. */
  readonly pools: string;
  /** Whether some pods wait, on a limit; else every pod is placed. */
  readonly someWait?: boolean;
  /** What the plan shows beyond every pod placed on a node that holds it. */
  readonly holds: string;
  readonly assess: (plan: Plan) => void;
}

const label = (claim: PlannedClaim, key: string) => claim.labels[key];
const count = (claim: PlannedClaim, key: string) => Number(claim.labels[key] ?? 0);

function eachClaim(plan: Plan, check: (claim: PlannedClaim) => void): void {
  expect(plan.nodeClaims.length).toBeGreaterThan(0);
  for (const claim of plan.nodeClaims) check(claim);
}

/** Pods of the workload per zone, zones with none included. */
function podsPerZone(plan: Plan): number[] {
  return ZONES.map((zone) =>
    plan.nodeClaims
      .filter((claim) => claim.zone === zone)
      .reduce((sum, claim) => sum + claim.pods.length, 0),
  );
}

const skew = (counts: readonly number[]) => Math.max(...counts) - Math.min(...counts);

/** Every claim from multiple-arch's arm64 pool, on arm64 instance types. */
function onArm64Pool(plan: Plan): void {
  eachClaim(plan, (claim) => {
    expect(claim.nodePool).toBe('arm64');
    expect(label(claim, 'kubernetes.io/arch')).toBe('arm64');
  });
}

const CASES: readonly WorkloadCase[] = [
  {
    workload: 'inflate.yaml',
    replicas: 150,
    pools: '100-cpu-limit.yaml',
    someWait: true,
    holds: "the pool's 100 cpu limit, the pods beyond it waiting on it",
    assess: (plan) => {
      const cpu = plan.nodeClaims.reduce(
        (sum, c) => sum + count(c, 'karpenter.k8s.aws/instance-cpu'),
        0,
      );
      expect(cpu).toBeLessThanOrEqual(100);
      for (const { reason } of plan.unschedulable) {
        expect(reason).toMatch(/^NodePool limitcpu100 would exceed its cpu limit/);
      }
    },
  },
  {
    workload: 'arm64.yaml',
    pools: 'multiple-arch.yaml',
    holds: 'its arm64 node selector, from the arm64 pool',
    assess: onArm64Pool,
  },
  {
    workload: 'prefer-arm.yaml',
    replicas: 4,
    pools: 'multiple-arch.yaml',
    holds: 'its heavier preference, arm64 over amd64',
    assess: onArm64Pool,
  },
  {
    workload: 'spot.yaml',
    replicas: 4,
    pools: 'spot.yaml',
    holds: 'its spot capacity-type selector',
    assess: (plan) =>
      eachClaim(plan, (claim) => {
        expect(claim.capacityType).toBe('spot');
        expect(label(claim, 'karpenter.sh/capacity-type')).toBe('spot');
      }),
  },
  ...(
    [
      ['gpu-nvidia.yaml', 'instance-gpu-manufacturer', 'nvidia', 'instance-gpu-count'],
      ['gpu-amd.yaml', 'instance-gpu-manufacturer', 'amd', 'instance-gpu-count'],
      ['neuron.yaml', 'instance-accelerator-name', 'inferentia', 'instance-accelerator-count'],
    ] as const
  ).map(
    ([workload, key, value, devices]): WorkloadCase => ({
      workload,
      replicas: 3,
      pools: 'large-instances.yaml',
      holds: `one device a pod on ${value} instance types`,
      assess: (plan) =>
        eachClaim(plan, (claim) => {
          expect(label(claim, `karpenter.k8s.aws/${key}`)).toBe(value);
          expect(count(claim, `karpenter.k8s.aws/${devices}`)).toBeGreaterThanOrEqual(
            claim.pods.length,
          );
        }),
    }),
  ),
  {
    workload: 'disruption-budget.yaml',
    pools: 'general-purpose.yaml',
    holds: 'its amd64 node selector for its ten pods',
    assess: (plan) =>
      eachClaim(plan, (claim) => {
        expect(label(claim, 'kubernetes.io/arch')).toBe('amd64');
      }),
  },
  {
    workload: 'spread-hostname.yaml',
    pools: 'general-purpose.yaml',
    holds: 'maxSkew 2 across hostnames: at most 2 pods a new node',
    assess: (plan) =>
      eachClaim(plan, (claim) => {
        expect(claim.pods.length).toBeLessThanOrEqual(2);
      }),
  },
  {
    workload: 'spread-zone.yaml',
    replicas: 7,
    pools: 'general-purpose.yaml',
    holds: 'maxSkew 1 across the three zones',
    assess: (plan) => {
      expect(skew(podsPerZone(plan))).toBeLessThanOrEqual(1);
    },
  },
  {
    workload: 'spread-hostname-zone.yaml',
    pools: 'general-purpose.yaml',
    holds: 'maxSkew 2 across hostnames and 5 across zones',
    assess: (plan) => {
      eachClaim(plan, (claim) => {
        expect(claim.pods.length).toBeLessThanOrEqual(2);
      });
      expect(skew(podsPerZone(plan))).toBeLessThanOrEqual(5);
    },
  },
];

/** The pods the workload asks for: the scaled count, else the Deployment's own (1 unset). */
function replicasOf(example: WorkloadCase): number {
  if (example.replicas !== undefined) return example.replicas;
  const deployment = documentsOf(workloadExample(example.workload)).find(
    (document) => document.kind === 'Deployment',
  );
  return Number(deployment?.spec.replicas ?? 1);
}

/** Each claim's instance type holds its pods' requests, with room left for the kubelet. */
function expectRequestsHeld(plan: Plan): void {
  for (const claim of plan.nodeClaims) {
    const pods = claim.pods.length;
    expect(pods * POD_CPU).toBeLessThan(count(claim, 'karpenter.k8s.aws/instance-cpu'));
    const memory = count(claim, 'karpenter.k8s.aws/instance-memory') * 1024 ** 2;
    expect(pods * POD_MEMORY_BYTES).toBeLessThan(memory);
  }
}

describe("nodesmith plan and Karpenter's example workloads", () => {
  it('has a case for every workload of examples/workloads', () => {
    // Assess
    expect(new Set(CASES.map((c) => c.workload))).toEqual(new Set(WORKLOAD_EXAMPLES));
  });

  it.each(CASES)('plans $workload on $pools: $holds', async (example) => {
    // Prepare
    const pools = writeExample(example.pools, poolExample(example.pools));
    const workload = writeExample(
      example.workload,
      workloadExample(example.workload, example.replicas),
    );
    const args = ['plan', '-o', 'json', '-f', pools, '-f', workload, '--zones', ZONES.join(',')];

    // Act
    const result = await runCliInProcess(args);

    // Assess
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const plan: Plan = JSON.parse(result.stdout);
    const placed = plan.nodeClaims.flatMap((claim) => claim.pods);
    expect(placed.length + plan.unschedulable.length).toBe(replicasOf(example));
    expect(plan.unschedulable.length > 0).toBe(example.someWait === true);
    expectRequestsHeld(plan);
    example.assess(plan);
  });
});
