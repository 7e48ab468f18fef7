/**
 * What a controller pass costs when nothing needs doing — the tick of a quiet cluster, and the
 * figure the running cost is computed from (README, "What it costs to run"). A cluster of N
 * initialized nodes of the `burst` scenario's pool, ten running pods each, no pending pod
 * (bench/seeded-cluster.ts): the pass takes the lease, reads the state on DynamoDB Local and the
 * cluster over HTTP, lists the instances and reads their status checks (200 ms each, as EC2's
 * DescribeInstances and DescribeInstanceStatus), finds nothing to launch, weighs every node for
 * disruption, and releases the lease. Measured from the SQS event to the handler's return.
 *
 * The function's container keeps claims, nodes and pods between its passes, as deployed
 * (bench/local-pass.ts): the first pass of a run is its cold start, timed as such; the second
 * settles what the first wrote (the seeded nodes get the termination finalizer); the passes after
 * it are the quiet ones, nothing having changed since the pass before; then as many after an
 * Event was recorded, the cluster's revision moved but no node or pod changed, so each kind's
 * catch-up waits out its one-second watch (docs/design.md §3.3.1). Beside them, how far the
 * process's peak RSS rose above the seeded cluster: an upper bound of what the function needs,
 * since the simulated API server runs in the same process (on a thread of its own).
 */

import type { CloudProvider } from '../functions/ports/cloud-provider.ts';
import type { PassReport } from '../functions/use-cases/controller/pass-report.ts';
import { lambdaContext, sqsEvent } from '../simulator/run/lambda-events.ts';
import { EC2_LATENCY_MS, passHandler, withDynamoDbLocal } from './local-pass.ts';
import { median } from './median.ts';
import { PODS_PER_NODE, type SeededCluster, seededCluster } from './seeded-cluster.ts';

/** The controller function's timeout (lib/nodesmith-functions.ts): what a pass may take. */
const FUNCTION_TIMEOUT_MS = 180_000;
const MIB = 2 ** 20;

interface Run {
  readonly coldMs: number;
  readonly quietMs: readonly number[];
  /** Quiet passes after an Event was recorded: the cluster's revision moved, no node or pod. */
  readonly movedMs: readonly number[];
  /** Peak RSS over the RSS with the cluster seeded, in MiB. */
  readonly rssRiseMiB: number;
}

/** The cloud of a quiet cluster: it lists the seeded instances and refuses to change anything. */
function quietCloud(cluster: SeededCluster): CloudProvider {
  const { cloud: simulated, sleep } = cluster.pass;
  return {
    resolveNodeClass: (c) => simulated.resolveNodeClass(c),
    instanceTypes: (c, o) => simulated.instanceTypes(c, o),
    prices: () => simulated.prices(),
    launch: () => Promise.reject(new Error('a quiet pass launches nothing')),
    terminate: () => Promise.reject(new Error('a quiet pass terminates nothing')),
    listManaged: async () => {
      await sleep(EC2_LATENCY_MS);
      return [...cluster.instances];
    },
    describe: async () => [],
    claimOwnership: () => Promise.reject(new Error('a quiet pass tags nothing')),
    instanceStatuses: async () => {
      await sleep(EC2_LATENCY_MS);
      return [];
    },
  };
}

function checkQuiet(report: PassReport | undefined): void {
  const did = [
    ...(report?.lifecycle ?? []).map((r) => `${r.kind} ${r.claim}`),
    ...(report?.launches ?? []).map((l) => `launch ${l.claim.name}`),
  ];
  if (did.length > 0)
    throw new Error(`the quiet pass was not quiet: ${did.slice(0, 5).join(', ')}`);
}

async function oneRun(endpoint: string, nodeCount: number, run: number, quiet: number) {
  const cluster = await seededCluster(endpoint, nodeCount, `steady-${nodeCount}-${run}`);
  const seededRss = process.memoryUsage().rss;
  let report: PassReport | undefined;
  const handler = passHandler(cluster.pass, {
    serverUrl: cluster.url,
    cloud: quietCloud(cluster),
    region: cluster.scenario.region,
    newClaimName: (p) => `${p}-new`,
    onReport: (r) => {
      report = r;
    },
  });
  const event = sqsEvent([{ wake: { source: 'schedule', reason: 'tick' }, dueAt: 0, id: 1 }]);
  const timed = async (name: string) => {
    const start = performance.now();
    const response = await handler(event, lambdaContext(name, FUNCTION_TIMEOUT_MS));
    if (response.batchItemFailures.length > 0) throw new Error(`pass ${name} failed`);
    return performance.now() - start;
  };
  const coldMs = await timed(`steady-${run}-cold`);
  await timed(`steady-${run}-settling`);
  const quietMs: number[] = [];
  for (let i = 1; i <= quiet; i++) {
    quietMs.push(await timed(`steady-${run}-quiet-${i}`));
    checkQuiet(report);
  }
  const movedMs: number[] = [];
  for (let i = 1; i <= quiet; i++) {
    await recordAnEvent(cluster, i);
    movedMs.push(await timed(`steady-${run}-moved-${i}`));
    checkQuiet(report);
  }
  const rssRiseMiB = (process.resourceUsage().maxRSS * 1024 - seededRss) / MIB;
  await cluster.close();
  return { coldMs, quietMs, movedMs, rssRiseMiB } satisfies Run;
}

/**
 * Something else in the cluster changes, as some object always does in a running one (a lease
 * renewed, an Event recorded): the cluster's revision moves while no node or pod changes.
 */
function recordAnEvent(cluster: SeededCluster, i: number): Promise<void> {
  return cluster.create('events', [
    {
      metadata: { name: `elsewhere.${i}`, namespace: 'default' },
      involvedObject: { kind: 'Namespace', name: 'default' },
      reason: 'Elsewhere',
      message: 'something else changed',
      type: 'Normal',
    },
  ]);
}

export interface SteadySize {
  readonly nodes: number;
  /** Runs, each on a fresh cluster. */
  readonly runs: number;
  /** Quiet passes timed in each run. */
  readonly quiet: number;
}

export const STEADY_SIZES: readonly SteadySize[] = [
  { nodes: 0, runs: 3, quiet: 3 },
  { nodes: 100, runs: 3, quiet: 3 },
  { nodes: 1000, runs: 3, quiet: 3 },
  { nodes: 5000, runs: 1, quiet: 3 },
  { nodes: 10000, runs: 1, quiet: 3 },
];

export function benchSteadyPass(sizes: readonly SteadySize[] = STEADY_SIZES): Promise<void> {
  return withDynamoDbLocal(async (endpoint) => {
    console.log(
      `\nquiet controller pass (nothing to do), warm container, DynamoDB Local, ${EC2_LATENCY_MS} ms per EC2 call`,
    );
    console.log(
      '| nodes | pods | quiet pass (median) | … after something else changed | first pass of a container | peak RSS over the seeded cluster |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|');
    for (const size of sizes) {
      const runs: Run[] = [];
      for (let run = 1; run <= size.runs; run++) {
        runs.push(await oneRun(endpoint, size.nodes, run, size.quiet));
      }
      const quiet = median(runs.flatMap((r) => r.quietMs));
      const moved = median(runs.flatMap((r) => r.movedMs));
      const cold = median(runs.map((r) => r.coldMs));
      const rise = runs[0]?.rssRiseMiB ?? 0;
      const cells = [
        `${size.nodes}`,
        `${size.nodes * PODS_PER_NODE}`,
        `${Math.round(quiet)} ms`,
        `${Math.round(moved)} ms`,
        `${(cold / 1000).toFixed(1)} s`,
        `${Math.round(rise)} MiB`,
      ];
      console.log(`| ${cells.join(' | ')} |`);
    }
  });
}
