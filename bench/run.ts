/**
 * `npm run bench`: the DESIGN §7 planning budgets, measured. Prints, per size of Karpenter's
 * "diverse" mix and of a plain mix: planning time (median), pods/second, whole `nodesmith plan`
 * process time and peak RSS, nodes, $/hour and the ratio to the fractional lower bound.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InstanceType } from '../functions/domain/instance-type.ts';
import { BUNDLED_CATALOG } from '../functions/domain/instance-types/bundled-catalog.ts';
import { buildInstanceTypes } from '../functions/domain/instance-types/instance-types.ts';
import { onDemandPrices } from '../functions/domain/instance-types/prices.ts';
import type { NodePool } from '../functions/domain/node-pool.ts';
import type { Pod } from '../functions/domain/pod.ts';
import { add, GiB } from '../functions/domain/resources.ts';
import { planProvisioning } from '../functions/domain/scheduling/plan-provisioning.ts';
import { podRequests } from '../functions/domain/scheduling/pod-requests.ts';
import type { ProvisioningPlan } from '../functions/domain/scheduling/provisioning-plan.ts';
import { fractionalLowerBound } from './lower-bound.ts';
import { diversePods, plainPods } from './pod-mixes.ts';
import { podListYaml } from './pod-yaml.ts';

const POOL: NodePool = {
  metadata: { name: 'default' },
  spec: {
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [
          { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
        ],
      },
    },
  },
};

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function plan(pods: readonly Pod[], types: readonly InstanceType[]): ProvisioningPlan {
  return planProvisioning({
    pods,
    nodes: [],
    nodeClaims: [],
    nodePools: [POOL],
    instanceTypes: new Map([['default', types]]),
    daemonSets: [],
  });
}

function lowerBound(pods: readonly Pod[], types: readonly InstanceType[]): number {
  const total = add(...pods.map((p) => podRequests(p)));
  const priced = types.flatMap((it) => {
    const price = Math.min(
      ...it.offerings.filter((o) => o.capacityType === 'on-demand').map((o) => o.pricePerHour),
    );
    return Number.isFinite(price)
      ? [{ name: it.name, cpu: it.allocatable.cpu ?? 0, memory: it.allocatable.memory ?? 0, price }]
      : [];
  });
  return fractionalLowerBound(priced, total.cpu ?? 0, total.memory ?? 0);
}

function wholeProcess(pods: readonly Pod[], runs: number): { seconds: number; rssMiB: number } {
  const dir = mkdtempSync(join(tmpdir(), 'nodesmith-bench-'));
  const file = join(dir, 'cluster.yaml');
  writeFileSync(file, podListYaml(pods));
  const rssFile = join(dir, 'rss');
  const times: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const run = spawnSync(
      process.execPath,
      ['--import', './bench/peak-rss.mjs', 'bin/nodesmith.mjs', 'plan', '-f', file, '-o', 'json'],
      {
        env: { ...process.env, NODESMITH_RSS_FILE: rssFile },
        stdio: ['ignore', 'ignore', 'inherit'],
        maxBuffer: 1 << 30,
      },
    );
    times.push((performance.now() - start) / 1000);
    if (run.status !== 0) throw new Error(`nodesmith plan exited ${run.status}`);
    rss.push(Number(readFileSync(rssFile, 'utf8')) / 2 ** 20);
  }
  return { seconds: median(times), rssMiB: Math.max(...rss) };
}

interface Row {
  readonly mix: string;
  readonly pods: number;
  readonly planSeconds: number;
  readonly processSeconds: number;
  readonly rssMiB: number;
  readonly nodes: number;
  readonly unschedulable: number;
  readonly pricePerHour: number;
  readonly ratio: number;
}

function measure(
  mix: string,
  pods: readonly Pod[],
  types: readonly InstanceType[],
  runs: number,
): Row {
  const times: number[] = [];
  let result: ProvisioningPlan | undefined;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    result = plan(pods, types);
    times.push((performance.now() - start) / 1000);
  }
  if (result === undefined) throw new Error('no run');
  const pricePerHour = result.nodeClaims.reduce((sum, c) => sum + c.offering.pricePerHour, 0);
  const process = wholeProcess(pods, Math.min(runs, 3));
  return {
    mix,
    pods: pods.length,
    planSeconds: median(times),
    processSeconds: process.seconds,
    rssMiB: process.rssMiB,
    nodes: result.nodeClaims.length,
    unschedulable: result.unschedulable.length,
    pricePerHour,
    ratio: pricePerHour / lowerBound(pods, types),
  };
}

function print(rows: readonly Row[]): void {
  const header =
    '| mix | pods | plan (median) | pods/s | whole process (median) | peak RSS | nodes | unschedulable | $/hour | ÷ lower bound |';
  console.log(header);
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.mix} | ${r.pods} | ${r.planSeconds.toFixed(3)} s | ${Math.round(r.pods / r.planSeconds)} | ${r.processSeconds.toFixed(2)} s | ${Math.round(r.rssMiB)} MiB | ${r.nodes} | ${r.unschedulable} | ${r.pricePerHour.toFixed(2)} | ${r.ratio.toFixed(3)} |`,
    );
  }
}

const types = buildInstanceTypes({
  catalog: BUNDLED_CATALOG,
  region: 'us-east-1',
  prices: onDemandPrices('us-east-1').prices,
  zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'],
});
console.log(
  `catalog: ${types.length} instance types, ${(types.reduce((s, t) => s + (t.allocatable.memory ?? 0), 0) / GiB).toFixed(0)} GiB in all`,
);
const rows: Row[] = [];
for (const [size, runs] of [
  [1000, 7],
  [5000, 5],
  [20000, 3],
] as const)
  rows.push(measure('diverse', diversePods(size), types, runs));
for (const [size, runs] of [
  [1000, 7],
  [5000, 5],
] as const)
  rows.push(measure('plain', plainPods(size), types, runs));
print(rows);
