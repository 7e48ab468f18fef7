/**
 * What the controller-pass benches share: one DynamoDB Local for all their runs, and per run fresh
 * tables holding the burst scenario's pools, the simulated cloud on the wall clock with every EC2
 * call taking its latency, and the controller function as SQS invokes it running the real pass
 * against the simulated API server over HTTP.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  makeLocalClient,
  startDynamoDbLocal,
} from '../functions/adapters/dynamodb/dynamodb-local.ts';
import { makeDynamoDbStateStore } from '../functions/adapters/dynamodb/dynamodb-state-store.ts';
import { createTables, type StateTableNames } from '../functions/adapters/dynamodb/tables.ts';
import { kubernetesClusterFrom } from '../functions/adapters/kubernetes/kubernetes-cluster.ts';
import { WarmSnapshot } from '../functions/adapters/kubernetes/warm-snapshot.ts';
import { makeControllerHandler } from '../functions/handlers/controller/handler.ts';
import type { Clock } from '../functions/ports/clock.ts';
import type { CloudProvider } from '../functions/ports/cloud-provider.ts';
import type { StateStore } from '../functions/ports/state-store.ts';
import { runControllerPass } from '../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../functions/use-cases/controller/pass-dependencies.ts';
import type { PassReport } from '../functions/use-cases/controller/pass-report.ts';
import { kubeConfigFor } from '../simulator/api-server/kube-config.ts';
import { SimulatedCloud } from '../simulator/cloud/simulated-cloud.ts';
import { configurePools } from '../simulator/run/configure-pools.ts';
import type { Scenario } from '../simulator/scenarios/scenario.ts';
import { SimulatedWorkQueue } from '../simulator/simulated-work-queue.ts';

/** What each EC2 call takes in the benches, about what CreateFleet and DescribeInstances take. */
export const EC2_LATENCY_MS = 200;

/** Runs the bench against one DynamoDB Local, with Powertools quiet, and stops it afterwards. */
export async function withDynamoDbLocal(bench: (endpoint: string) => Promise<void>): Promise<void> {
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  const local = await startDynamoDbLocal();
  try {
    await bench(local.endpoint);
  } finally {
    await local.stop();
  }
}

export interface LocalPass {
  readonly client: DynamoDBClient;
  readonly tables: StateTableNames;
  /** The state as the bench seeds and inspects it. */
  readonly state: StateStore;
  readonly clock: Clock;
  readonly sleep: (ms: number) => Promise<void>;
  readonly cloud: SimulatedCloud;
}

/** Fresh tables with the scenario's pools stored, and the simulated cloud of its region. */
export async function localPass(
  endpoint: string,
  tables: StateTableNames,
  scenario: Scenario,
): Promise<LocalPass> {
  const client = makeLocalClient(endpoint);
  await createTables(client, tables);
  const state = makeDynamoDbStateStore({ client: DynamoDBDocumentClient.from(client), tables });
  await configurePools(state, scenario.manifests);
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
  return { client, tables, state, clock, sleep, cloud };
}

export interface PassHandlerOptions {
  readonly serverUrl: string;
  /** The cloud as the pass sees it: the simulated one, timed or narrowed by the bench. */
  readonly cloud: CloudProvider;
  readonly region: string;
  readonly newClaimName: (nodePool: string) => string;
  readonly onReport?: (report: PassReport) => void;
}

/**
 * The controller function, each invocation one real pass with decisions published nowhere. Like
 * the deployed function's container, the handler keeps claims, nodes and pods between its passes.
 */
export function passHandler(pass: LocalPass, options: PassHandlerOptions) {
  const { clock } = pass;
  const state = makeDynamoDbStateStore({
    client: DynamoDBDocumentClient.from(pass.client),
    tables: pass.tables,
    warmClaims: {},
  });
  const warm = new WarmSnapshot();
  return makeControllerHandler({
    pass: async (holder) => {
      const report = await runControllerPass(
        {
          state,
          cluster: kubernetesClusterFrom(kubeConfigFor(options.serverUrl), { warm }),
          cloud: options.cloud,
          decisions: { publish: async () => undefined },
          waker: new SimulatedWorkQueue(clock),
          clock,
          newClaimName: options.newClaimName,
          holder,
        },
        { ...DEFAULT_PASS_SETTINGS, region: options.region },
      );
      options.onReport?.(report);
      return report;
    },
  });
}
