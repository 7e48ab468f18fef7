/**
 * The controller budgets of docs/design.md §7.1: one pass with 1,000 pending pods (Unschedulable, as
 * kube-scheduler leaves them) read from the simulated API server over HTTP, state on DynamoDB
 * Local, every EC2 call taking 200 ms; and a burst of 5,000 such pods on a running cluster of
 * 10,000 nodes, met by a warm container. Measures, from the SQS trigger reaching the handler, the
 * first CreateFleet and the last CreateFleet of the pass.
 */

import type { CloudProvider, ManagedInstance } from '../functions/ports/cloud-provider.ts';
import type { JsonObject } from '../simulator/api-server/json.ts';
import type { SimulatedCloud } from '../simulator/cloud/simulated-cloud.ts';
import { lambdaContext, sqsEvent } from '../simulator/run/lambda-events.ts';
import { burstScenario } from '../simulator/scenarios/burst.ts';
import { ClusterThread } from './cluster-thread.ts';
import { EC2_LATENCY_MS, localPass, passHandler, withDynamoDbLocal } from './local-pass.ts';
import { median } from './median.ts';
import { seededCluster } from './seeded-cluster.ts';

const PODS = 1000;

export interface PassTiming {
  readonly firstLaunchMs: number;
  readonly lastLaunchMs: number;
  readonly passMs: number;
  readonly launches: number;
}

/** The controller function's timeout (lib/nodesmith-functions.ts): what a pass may take. */
const FUNCTION_TIMEOUT_MS = 180_000;

function unschedulable(pod: JsonObject): JsonObject {
  return {
    ...pod,
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
    },
  };
}

/**
 * The cloud as the pass sees it, noting when each CreateFleet is issued; `running` are instances
 * EC2 lists besides those the simulated cloud launched (a seeded cluster's).
 */
function timed(
  cloud: SimulatedCloud,
  issued: number[],
  running: readonly ManagedInstance[] = [],
): CloudProvider {
  return {
    resolveNodeClass: (c) => cloud.resolveNodeClass(c),
    instanceTypes: (c, o) => cloud.instanceTypes(c, o),
    prices: () => cloud.prices(),
    terminate: (id) => cloud.terminate(id),
    listManaged: async () => [...running, ...(await cloud.listManaged())],
    describe: (ids) => cloud.describe(ids),
    claimOwnership: (ids) => cloud.claimOwnership(ids),
    instanceStatuses: () => cloud.instanceStatuses(),
    launch: (claim, context) => {
      issued.push(performance.now());
      return cloud.launch(claim, context);
    },
  };
}

async function onePass(endpoint: string, run: number): Promise<PassTiming> {
  const scenario = burstScenario(1, PODS);
  const tables = { state: `bench-state-${run}`, nodeClaims: `bench-claims-${run}` };
  const pass = await localPass(endpoint, tables, scenario);
  // An empty cluster on the server's own thread, as for the seeded ones (bench/cluster-thread.ts).
  const { thread, url } = await ClusterThread.start({ nodes: 0, zones: scenario.zones });
  await thread.ask({
    op: 'create',
    resource: 'pods',
    objects: scenario.steps.flatMap((step) => step.pods.map(unschedulable)),
  });
  const issued: number[] = [];
  let claims = 0;
  const handler = passHandler(pass, {
    serverUrl: url,
    cloud: timed(pass.cloud, issued),
    region: scenario.region,
    newClaimName: (pool) => `${pool}-${(claims++).toString(36).padStart(5, '0')}`,
  });
  const event = sqsEvent([
    { wake: { source: 'audit', reason: `${PODS} pods unschedulable` }, dueAt: 0, id: 1 },
  ]);
  const start = performance.now();
  await handler(event, lambdaContext(`bench-${run}`));
  const end = performance.now();
  await thread.ask({ op: 'close' });
  pass.client.destroy();
  return timing(issued, start, end);
}

function timing(issued: readonly number[], start: number, end: number): PassTiming {
  return {
    firstLaunchMs: (issued[0] ?? end) - start,
    lastLaunchMs: (issued.at(-1) ?? end) - start,
    passMs: end - start,
    launches: issued.length,
  };
}

/**
 * A burst of `pending` pods on a running cluster of `nodes` busy nodes, met by a warm container:
 * its passes so far have kept claims, nodes and pods, so this one catches up the new pods by
 * watch and plans them against every node.
 */
async function burstOnRunningCluster(
  endpoint: string,
  nodes: number,
  pending: number,
  kubelets: boolean,
): Promise<PassTiming> {
  const cluster = await seededCluster(endpoint, nodes, `burst-${nodes}-${kubelets}`);
  const issued: number[] = [];
  let claims = 0;
  const handler = passHandler(cluster.pass, {
    serverUrl: cluster.url,
    cloud: timed(cluster.pass.cloud, issued, cluster.instances),
    region: cluster.scenario.region,
    // Apart from the seeded claims' names.
    newClaimName: (pool) => `${pool}-b${(claims++).toString(36).padStart(4, '0')}`,
  });
  const tick = sqsEvent([{ wake: { source: 'schedule', reason: 'tick' }, dueAt: 0, id: 1 }]);
  // A cold start, a pass settling what it wrote, a quiet one: the container is warm.
  for (const name of ['cold', 'settling', 'quiet']) {
    await handler(tick, lambdaContext(`burst-${name}`, FUNCTION_TIMEOUT_MS));
  }
  if (kubelets) await cluster.reportNodeStatus();
  const burst = burstScenario(1, pending);
  await cluster.create(
    'pods',
    burst.steps.flatMap((step) => step.pods.map(unschedulable)),
  );
  const event = sqsEvent([
    { wake: { source: 'audit', reason: `${pending} pods unschedulable` }, dueAt: 0, id: 2 },
  ]);
  issued.length = 0;
  const start = performance.now();
  await handler(event, lambdaContext('burst', FUNCTION_TIMEOUT_MS));
  const end = performance.now();
  await cluster.close();
  return timing(issued, start, end);
}

/**
 * The burst on a cluster where nothing but the burst changes, and on one whose kubelets report
 * their nodes' status as they do by default (seeded-cluster.ts): a catch-up of nodes waits out
 * its watch when no node changed since the burst began.
 */
export function benchBurstOnRunningCluster(
  nodes = 10_000,
  pending = 5_000,
  kubeletReports: readonly boolean[] = [false, true],
): Promise<void> {
  return withDynamoDbLocal(async (endpoint) => {
    console.log(
      `\ncontroller pass, ${pending} pending pods on ${nodes} running nodes, warm container, ${EC2_LATENCY_MS} ms per EC2 call (budget: first CreateFleet ≤ 2 s)`,
    );
    console.log('| nodes change | first CreateFleet | last CreateFleet | whole pass | launches |');
    console.log('|---|---:|---:|---:|---:|');
    for (const kubelets of kubeletReports) {
      const t = await burstOnRunningCluster(endpoint, nodes, pending, kubelets);
      const ms = (value: number) => `${Math.round(value)} ms`;
      const cells = [
        kubelets ? 'kubelets report every 5 min' : 'only the burst changes',
        ms(t.firstLaunchMs),
        ms(t.lastLaunchMs),
        ms(t.passMs),
        String(t.launches),
      ];
      console.log(`| ${cells.join(' | ')} |`);
    }
  });
}

export function benchControllerPass(runs = 5): Promise<void> {
  return withDynamoDbLocal(async (endpoint) => {
    const timings: PassTiming[] = [];
    for (let run = 1; run <= runs; run++) timings.push(await onePass(endpoint, run));
    const ms = (pick: (t: PassTiming) => number) => `${Math.round(median(timings.map(pick)))} ms`;
    console.log(
      `\ncontroller pass, ${PODS} pending pods, API server over HTTP, DynamoDB Local, ${EC2_LATENCY_MS} ms per EC2 call (median of ${runs})`,
    );
    console.log(`  trigger → first CreateFleet   ${ms((t) => t.firstLaunchMs)}   (budget ≤ 2 s)`);
    console.log(`  trigger → last CreateFleet    ${ms((t) => t.lastLaunchMs)}   (budget ≤ 5 s)`);
    console.log(`  whole pass                    ${ms((t) => t.passMs)}`);
    console.log(`  launches per pass             ${timings.map((t) => t.launches).join(', ')}`);
  });
}
