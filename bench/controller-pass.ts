/**
 * The controller budget of docs/design.md §7.1: one pass with 1,000 pending pods (Unschedulable, as
 * kube-scheduler leaves them) read from the simulated API server over HTTP, state on DynamoDB
 * Local, every EC2 call taking 200 ms. Measures, from the SQS trigger reaching the handler, the
 * first CreateFleet and the last CreateFleet of the pass.
 */

import type { CloudProvider } from '../functions/ports/cloud-provider.ts';
import { startFakeApiServer } from '../simulator/api-server/server.ts';
import type { SimulatedCloud } from '../simulator/cloud/simulated-cloud.ts';
import { lambdaContext, sqsEvent } from '../simulator/run/lambda-events.ts';
import { burstScenario } from '../simulator/scenarios/burst.ts';
import { EC2_LATENCY_MS, localPass, passHandler, withDynamoDbLocal } from './local-pass.ts';
import { median } from './median.ts';

const PODS = 1000;

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
  const server = await startFakeApiServer({ namespaces: ['default', 'shop', 'batch'] });
  for (const step of scenario.steps)
    for (const pod of step.pods) server.store.create('pods', unschedulable(pod));
  const issued: number[] = [];
  let claims = 0;
  const handler = passHandler(pass, {
    serverUrl: server.url,
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
  await server.close();
  pass.client.destroy();
  return {
    firstLaunchMs: (issued[0] ?? end) - start,
    lastLaunchMs: (issued.at(-1) ?? end) - start,
    passMs: end - start,
    launches: issued.length,
  };
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
