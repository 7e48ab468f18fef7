/**
 * `npm run bench`: the planning budgets of docs/design.md §7, measured. Prints, per size of
 * Karpenter's "diverse" mix and of a plain mix: planning time (median), pods/second, whole
 * `nodesmith plan` process time and peak RSS, nodes, $/hour and the ratios to the fractional
 * lower bound and, for plain mixes, to one node group; then the cost budgets (§7.2) judged on
 * them; then the planning budget as stated, this tree's whole process against the one built from
 * the budget's commit in alternating pairs (bench/paired-plan.ts; `--no-pair` leaves it out,
 * `--pair-only` runs it alone); then limits, a consolidation decision, controller passes, the
 * steady and burst passes at scale and decision latency per scenario (`--planning-only` leaves
 * these out); then each function's import time and `cdk synth`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InstanceType } from '../functions/domain/instance-type.ts';
import { BUNDLED_CATALOG } from '../functions/domain/instance-types/bundled-catalog.ts';
import { buildInstanceTypes } from '../functions/domain/instance-types/instance-types.ts';
import { onDemandPrices } from '../functions/domain/instance-types/prices.ts';
import type { NodePool } from '../functions/domain/node-pool.ts';
import type { Pod } from '../functions/domain/pod.ts';
import type { NodeSelectorRequirement } from '../functions/domain/requirements/requirement.ts';
import { add } from '../functions/domain/resources.ts';
import { nodeClaimTemplate } from '../functions/domain/scheduling/node-claim-template.ts';
import { planProvisioning } from '../functions/domain/scheduling/plan-provisioning.ts';
import { podRequests } from '../functions/domain/scheduling/pod-requests.ts';
import type { ProvisioningPlan } from '../functions/domain/scheduling/provisioning-plan.ts';
import { costVerdicts } from './cost-budgets.ts';
import { fractionalLowerBound } from './lower-bound.ts';
import { median } from './median.ts';
import { cheapestNodeGroup, type NodeGroupCost } from './node-group.ts';
import { benchPairedPlan } from './paired-plan.ts';
import { runPlanProcess } from './plan-process.ts';
import { diversePods, plainPods } from './pod-mixes.ts';
import { podListYaml } from './pod-yaml.ts';

function pool(requirements: readonly NodeSelectorRequirement[]): NodePool {
  const nodeClassRef = { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' };
  return {
    metadata: { name: 'default' },
    spec: { template: { spec: { nodeClassRef, requirements } } },
  };
}

const ON_DEMAND: NodeSelectorRequirement = {
  key: 'karpenter.sh/capacity-type',
  operator: 'In',
  values: ['on-demand'],
};

/** Every instance type, as Karpenter's own benchmark offers its scheduler. */
const ANY_TYPE = pool([ON_DEMAND]);

/**
 * The NodePool most Karpenter users start from (aws/karpenter-provider-aws
 * examples/v1/general-purpose.yaml): categories c, m, r, generation > 2.
 */
const GENERAL_PURPOSE = pool([
  ON_DEMAND,
  { key: 'karpenter.k8s.aws/instance-category', operator: 'In', values: ['c', 'm', 'r'] },
  { key: 'karpenter.k8s.aws/instance-generation', operator: 'Gt', values: ['2'] },
]);

function plan(
  nodePool: NodePool,
  pods: readonly Pod[],
  types: readonly InstanceType[],
): ProvisioningPlan {
  const instanceTypes = new Map([['default', types]]);
  return planProvisioning({
    pods,
    nodes: [],
    nodeClaims: [],
    nodePools: [nodePool],
    instanceTypes,
    daemonSets: [],
  });
}

/** The types the pool allows, with the allocatable a pod actually gets and the on-demand price. */
function pricedOptions(nodePool: NodePool, types: readonly InstanceType[]) {
  const allowed = nodeClaimTemplate({ nodePool, instanceTypes: types, daemonSets: [] }).options;
  return allowed.map(({ instanceType: it, net }) => ({
    name: it.name,
    cpu: net.cpu ?? 0,
    memory: net.memory ?? 0,
    pods: net.pods ?? 0,
    price: Math.min(
      ...it.offerings.filter((o) => o.capacityType === 'on-demand').map((o) => o.pricePerHour),
    ),
  }));
}

/** The fractional bound over the types the pool allows. */
function lowerBound(nodePool: NodePool, pods: readonly Pod[], types: readonly InstanceType[]) {
  const total = add(...pods.map((p) => podRequests(p)));
  return fractionalLowerBound(pricedOptions(nodePool, types), total.cpu ?? 0, total.memory ?? 0);
}

/** The cheapest single-type node group for the same pods; plain mixes only (it ignores constraints). */
function nodeGroup(
  nodePool: NodePool,
  pods: readonly Pod[],
  types: readonly InstanceType[],
): NodeGroupCost | undefined {
  const demands = pods.map((pod) => {
    const requests = podRequests(pod);
    return { cpu: requests.cpu ?? 0, memory: requests.memory ?? 0 };
  });
  return cheapestNodeGroup(pricedOptions(nodePool, types), demands);
}

/** Runs the bundled CLI on a generated dump, as a user would; peak RSS comes from the process itself. */
function wholeProcess(
  nodePool: NodePool,
  pods: readonly Pod[],
  runs: number,
): { seconds: number; rssMiB: number } {
  const dir = mkdtempSync(join(tmpdir(), 'nodesmith-bench-'));
  const file = join(dir, 'cluster.yaml');
  let measured: ReturnType<typeof runPlanProcess>[];
  try {
    writeFileSync(file, podListYaml(nodePool, pods));
    measured = Array.from({ length: runs }, () =>
      runPlanProcess('bin/nodesmith.mjs', file, join(dir, 'rss')),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    seconds: median(measured.map((m) => m.seconds)),
    rssMiB: Math.max(...measured.map((m) => m.rssBytes)) / 2 ** 20,
  };
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
  readonly nodeGroup: NodeGroupCost | undefined;
}

interface Case {
  readonly mix: string;
  readonly nodePool: NodePool;
  readonly pods: readonly Pod[];
  readonly runs: number;
  /** Plain mixes only: the node-group yardstick ignores scheduling constraints. */
  readonly nodeGroup?: boolean;
}

function measure(c: Case, types: readonly InstanceType[]): Row {
  const { mix, nodePool, pods, runs } = c;
  const times: number[] = [];
  let result: ProvisioningPlan | undefined;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    result = plan(nodePool, pods, types);
    times.push((performance.now() - start) / 1000);
  }
  if (result === undefined) throw new Error('no run');
  const pricePerHour = result.nodeClaims.reduce((sum, c) => sum + c.offering.pricePerHour, 0);
  const whole = wholeProcess(nodePool, pods, Math.min(runs, 3));
  return {
    mix,
    pods: pods.length,
    planSeconds: median(times),
    processSeconds: whole.seconds,
    rssMiB: whole.rssMiB,
    nodes: result.nodeClaims.length,
    unschedulable: result.unschedulable.length,
    pricePerHour,
    ratio: pricePerHour / lowerBound(nodePool, pods, types),
    nodeGroup: c.nodeGroup ? nodeGroup(nodePool, pods, types) : undefined,
  };
}

/** The plan's $/hour ÷ the one-node-group yardstick; plain mixes only. */
function nodeGroupRatio(r: Row): number | undefined {
  return r.nodeGroup === undefined ? undefined : r.pricePerHour / r.nodeGroup.pricePerHour;
}

function nodeGroupCells(r: Row): string[] {
  const group = r.nodeGroup;
  if (group === undefined) return ['—', '—'];
  const cost = `${group.nodes} × ${group.instanceType}, ${group.pricePerHour.toFixed(2)}`;
  return [cost, (nodeGroupRatio(r) ?? 0).toFixed(3)];
}

function print(rows: readonly Row[]): void {
  console.log(
    '| mix | pods | plan (median) | pods/s | whole process (median) | peak RSS | nodes | unschedulable | $/hour | ÷ lower bound | one node group | ÷ node group |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|');
  for (const r of rows) {
    const cells = [
      r.mix,
      `${r.pods}`,
      `${r.planSeconds.toFixed(3)} s`,
      `${Math.round(r.pods / r.planSeconds)}`,
      `${r.processSeconds.toFixed(2)} s`,
      `${Math.round(r.rssMiB)} MiB`,
      `${r.nodes}`,
      `${r.unschedulable}`,
      r.pricePerHour.toFixed(2),
      r.ratio.toFixed(3),
      ...nodeGroupCells(r),
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
}

/** The paired planning run: 7 pairs at 5,000 pods and 5 at 20,000. */
const PAIRED = [
  { pods: 5000, pairs: 7 },
  { pods: 20000, pairs: 5 },
];

if (process.argv.includes('--pair-only')) {
  benchPairedPlan(ANY_TYPE, PAIRED);
  process.exit(0);
}

const types = buildInstanceTypes({
  catalog: BUNDLED_CATALOG,
  region: 'us-east-1',
  prices: onDemandPrices('us-east-1').prices,
  zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'],
});
const cases: Case[] = [
  { mix: 'diverse, any type', nodePool: ANY_TYPE, pods: diversePods(1000), runs: 7 },
  { mix: 'diverse, any type', nodePool: ANY_TYPE, pods: diversePods(5000), runs: 5 },
  { mix: 'diverse, any type', nodePool: ANY_TYPE, pods: diversePods(20000), runs: 3 },
  {
    mix: 'plain, c/m/r',
    nodePool: GENERAL_PURPOSE,
    pods: plainPods(1000),
    runs: 7,
    nodeGroup: true,
  },
  {
    mix: 'plain, c/m/r',
    nodePool: GENERAL_PURPOSE,
    pods: plainPods(5000),
    runs: 5,
    nodeGroup: true,
  },
  { mix: 'plain, any type', nodePool: ANY_TYPE, pods: plainPods(1000), runs: 7, nodeGroup: true },
  { mix: 'plain, any type', nodePool: ANY_TYPE, pods: plainPods(5000), runs: 5, nodeGroup: true },
];
console.log(`catalog: ${types.length} instance types (us-east-1, on-demand list prices)`);
const rows = cases.map((c) => measure(c, types));
print(rows);
console.log('\ncost of plans (docs/design.md §7.2)');
const costRows = rows.map((r) => ({ ...r, nodeGroupRatio: nodeGroupRatio(r) }));
for (const line of costVerdicts(costRows)) console.log(`  ${line}`);
if (!process.argv.includes('--no-pair')) benchPairedPlan(ANY_TYPE, PAIRED);

if (!process.argv.includes('--planning-only')) {
  const { benchLimits } = await import('./limits.ts');
  benchLimits(types);
  const { benchConsolidation } = await import('./consolidation.ts');
  benchConsolidation(types);
  const { benchControllerPass } = await import('./controller-pass.ts');
  await benchControllerPass();
}
if (!process.argv.includes('--planning-only')) {
  const { benchSteadyPass } = await import('./steady-pass.ts');
  await benchSteadyPass();
  const { benchBurstOnRunningCluster } = await import('./controller-pass.ts');
  await benchBurstOnRunningCluster();
  const { benchDecisionLatency } = await import('./decision-latency.ts');
  await benchDecisionLatency();
}
const { benchHandlerImports } = await import('./handler-imports.ts');
await benchHandlerImports();
const { benchCdkSynth } = await import('./cdk-synth.ts');
benchCdkSynth();
