/**
 * Two controller invocations racing for every batch of wakes, each wake delivered twice, with
 * the state on DynamoDB Local: the lease and the conditional claim writes must keep the launches
 * exactly those of one undisturbed run (docs/design.md §5.1).
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDynamoDbStateStore } from '../../functions/adapters/dynamodb/dynamodb-state-store.ts';
import { createTables } from '../../functions/adapters/dynamodb/tables.ts';
import { runSimulation } from '../../simulator/run/run-simulation.ts';
import { burstScenario } from '../../simulator/scenarios/burst.ts';
import { limitsScenario } from '../../simulator/scenarios/limits-scenario.ts';
import { makeLocalClient, useDynamoDbLocal } from '../support/dynamodb-local.ts';

const endpoint = useDynamoDbLocal();
const clients: { destroy(): void }[] = [];

afterAll(() => {
  for (const client of clients) client.destroy();
});

async function dynamoDbState(name: string) {
  const client = makeLocalClient(endpoint());
  clients.push(client);
  const tables = {
    nodeClaims: `race-claims-${name}-${process.pid}`,
    state: `race-state-${name}-${process.pid}`,
  };
  await createTables(client, tables, { timeToLive: false });
  return makeDynamoDbStateStore({ client: DynamoDBDocumentClient.from(client), tables });
}

describe('passes racing on DynamoDB Local', () => {
  it('launch exactly as many instances as one run, and none leaks', async () => {
    const alone = await runSimulation(burstScenario(21, 120), { seed: 21 });
    const raced = await runSimulation(burstScenario(21, 120), {
      seed: 21,
      state: await dynamoDbState('raced'),
      concurrentPasses: 2,
      duplicateWakes: true,
    });
    for (const invariant of raced.summary.invariants) {
      expect(invariant.held, `${invariant.name}: ${invariant.detail}`).toBe(true);
    }
    expect(raced.summary.launches).toBe(alone.summary.launches);
    expect(raced.summary.pods).toEqual(alone.summary.pods);
    expect(raced.summary.leakedInstances).toBe(0);
    const leftToOthers = raced.timeline.filter((line) => line.message.includes('lease held'));
    expect(leftToOthers.length).toBeGreaterThan(0);
  }, 180_000);

  it('never runs more nodes than the NodePool nodes limit, however the passes race', async () => {
    const burst = burstScenario(22, 120);
    const limited = {
      ...burst,
      manifests: burst.manifests.map((m) => ({
        ...m,
        text: `${m.text}  limits:\n    nodes: "4"\n`,
      })),
    };
    const raced = await runSimulation(limited, {
      seed: 22,
      state: await dynamoDbState('limited'),
      concurrentPasses: 2,
      duplicateWakes: true,
    });
    const running = raced.samples.map((s) =>
      Object.values(s.nodesByType).reduce((sum, n) => sum + n, 0),
    );
    expect(Math.max(...running)).toBe(4);
    expect(raced.summary.pods.pending).toBeGreaterThan(0);
    expect(raced.summary.leakedInstances).toBe(0);
  }, 180_000);

  it('never runs past the cluster hourly-cost limit, and ends at it, however the passes race', async () => {
    const scenario = limitsScenario(23, 120);
    const limit = Number(scenario.clusterLimits?.['nodesmith.io/hourly-cost']);
    const raced = await runSimulation(scenario, {
      seed: 23,
      state: await dynamoDbState('cost'),
      concurrentPasses: 2,
      duplicateWakes: true,
    });
    const costs = raced.samples.map((s) => s.costPerHour);
    expect(Math.max(...costs)).toBeLessThanOrEqual(limit);
    // At the limit: what is left would not buy the smallest node any pending pod fits on.
    expect(raced.summary.costPerHour).toBeGreaterThan(limit - 0.05);
    expect(raced.summary.pods.pending).toBeGreaterThan(0);
    const reached = raced.timeline.filter((line) => line.message.startsWith('limit reached'));
    expect(reached).toHaveLength(1);
    for (const invariant of raced.summary.invariants) {
      expect(invariant.held, `${invariant.name}: ${invariant.detail}`).toBe(true);
    }
  }, 180_000);
});
