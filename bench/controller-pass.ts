/**
 * The controller budget of docs/design.md §7.1: one pass with 1,000 pending pods (Unschedulable, as
 * kube-scheduler leaves them) read from the simulated API server over HTTP, state on DynamoDB
 * Local, every EC2 call taking 200 ms. Measures, from the SQS trigger reaching the handler, the
 * first CreateFleet and the last CreateFleet of the pass.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { configurePools } from '../bin/cli/simulate/configure-pools.ts';
import { lambdaContext, sqsEvent } from '../bin/cli/simulate/lambda-events.ts';
import { burstScenario } from '../bin/cli/simulate/scenarios/burst.ts';
import {
  makeLocalClient,
  startDynamoDbLocal,
} from '../functions/adapters/dynamodb/dynamodb-local.ts';
import { makeDynamoDbStateStore } from '../functions/adapters/dynamodb/dynamodb-state-store.ts';
import { createTables } from '../functions/adapters/dynamodb/tables.ts';
import { kubernetesClusterFrom } from '../functions/adapters/kubernetes/kubernetes-cluster.ts';
import { kubeConfigFor } from '../functions/adapters/simulated/api-server/kube-config.ts';
import { startFakeApiServer } from '../functions/adapters/simulated/api-server/server.ts';
import { SimulatedCloud } from '../functions/adapters/simulated/cloud/simulated-cloud.ts';
import { SimulatedWorkQueue } from '../functions/adapters/simulated/simulated-work-queue.ts';
import { makeControllerHandler } from '../functions/handlers/controller/handler.ts';
import type { CloudProvider } from '../functions/ports/cloud-provider.ts';
import type { Decision } from '../functions/ports/decisions.ts';
import { runControllerPass } from '../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../functions/use-cases/controller/pass-dependencies.ts';

const PODS = 1000;
const EC2_LATENCY_MS = 200;

export interface PassTiming {
  readonly firstLaunchMs: number;
  readonly lastLaunchMs: number;
  readonly passMs: number;
  readonly launches: number;
}

function unschedulable(pod: Record<string, unknown>) {
  return {
    ...pod,
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
    },
  };
}

/** The cloud as the pass sees it, noting when each CreateFleet is issued. */
function timed(cloud: SimulatedCloud, issued: number[]): CloudProvider {
  return {
    resolveNodeClass: (c) => cloud.resolveNodeClass(c),
    instanceTypes: (c, o) => cloud.instanceTypes(c, o),
    prices: () => cloud.prices(),
    terminate: (id) => cloud.terminate(id),
    listManaged: () => cloud.listManaged(),
    describe: (ids) => cloud.describe(ids),
    claimOwnership: (ids) => cloud.claimOwnership(ids),
    launch: (claim, context) => {
      issued.push(performance.now());
      return cloud.launch(claim, context);
    },
  };
}

async function onePass(endpoint: string, run: number): Promise<PassTiming> {
  const client = makeLocalClient(endpoint);
  const tables = { state: `bench-state-${run}`, nodeClaims: `bench-claims-${run}` };
  await createTables(client, tables);
  const state = makeDynamoDbStateStore({ client: DynamoDBDocumentClient.from(client), tables });
  const scenario = burstScenario(1, PODS);
  await configurePools(state, scenario.manifests);
  const server = await startFakeApiServer({ namespaces: ['default', 'shop', 'batch'] });
  for (const step of scenario.steps)
    for (const pod of step.pods) server.store.create('pods', unschedulable(pod));
  const clock = { now: () => new Date() };
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const cloud = new SimulatedCloud({
    clock,
    region: scenario.region,
    zones: scenario.zones,
    seed: 1,
    latencyMs: EC2_LATENCY_MS,
    sleep,
  });
  const issued: number[] = [];
  let claims = 0;
  const handler = makeControllerHandler({
    pass: (holder) =>
      runControllerPass(
        {
          state,
          cluster: kubernetesClusterFrom(kubeConfigFor(server.url)),
          cloud: timed(cloud, issued),
          decisions: { publish: async (_: readonly Decision[]) => undefined },
          waker: new SimulatedWorkQueue(clock),
          clock,
          newClaimName: (pool) => `${pool}-${(claims++).toString(36).padStart(5, '0')}`,
          holder,
        },
        { ...DEFAULT_PASS_SETTINGS, region: scenario.region },
      ),
  });
  const event = sqsEvent([
    { wake: { source: 'audit', reason: `${PODS} pods unschedulable` }, dueAt: 0, id: 1 },
  ]);
  const start = performance.now();
  await handler(event, lambdaContext(`bench-${run}`));
  const end = performance.now();
  await server.close();
  client.destroy();
  return {
    firstLaunchMs: (issued[0] ?? end) - start,
    lastLaunchMs: (issued.at(-1) ?? end) - start,
    passMs: end - start,
    launches: issued.length,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export async function benchControllerPass(runs = 5): Promise<void> {
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  const local = await startDynamoDbLocal();
  try {
    const timings: PassTiming[] = [];
    for (let run = 1; run <= runs; run++) timings.push(await onePass(local.endpoint, run));
    const ms = (pick: (t: PassTiming) => number) => `${Math.round(median(timings.map(pick)))} ms`;
    console.log(
      `\ncontroller pass, ${PODS} pending pods, API server over HTTP, DynamoDB Local, ${EC2_LATENCY_MS} ms per EC2 call (median of ${runs})`,
    );
    console.log(`  trigger → first CreateFleet   ${ms((t) => t.firstLaunchMs)}   (budget ≤ 2 s)`);
    console.log(`  trigger → last CreateFleet    ${ms((t) => t.lastLaunchMs)}   (budget ≤ 5 s)`);
    console.log(`  whole pass                    ${ms((t) => t.passMs)}`);
    console.log(`  launches per pass             ${timings.map((t) => t.launches).join(', ')}`);
  } finally {
    await local.stop();
  }
}
