/**
 * Many fault runs against one DynamoDB Local, a few at a time, each on tables of its own that
 * are dropped when it ends; the results come back in seed order.
 */
import {
  localStateStoreOnNewTables,
  type makeLocalClient,
} from '../../functions/adapters/dynamodb/dynamodb-local.ts';
import { type FaultRunResult, runFaultRun } from './fault-run.ts';

type LocalClient = ReturnType<typeof makeLocalClient>;

export interface CampaignOptions {
  readonly seeds: readonly number[];
  /** Runs in flight at once. */
  readonly jobs: number;
  readonly onResult?: (result: FaultRunResult) => void;
}

async function runOnFreshTables(client: LocalClient, seed: number): Promise<FaultRunResult> {
  const { state, drop } = await localStateStoreOnNewTables(client, `faults-${seed}`);
  try {
    return await runFaultRun(seed, state);
  } finally {
    await drop();
  }
}

export async function runCampaign(
  client: LocalClient,
  { seeds, jobs, onResult }: CampaignOptions,
): Promise<FaultRunResult[]> {
  const results: FaultRunResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < seeds.length) {
      const seed = seeds[next++] as number;
      const result = await runOnFreshTables(client, seed);
      results.push(result);
      onResult?.(result);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  return results.sort((a, b) => a.seed - b.seed);
}
