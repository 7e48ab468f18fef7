/**
 * Seeded fault runs on DynamoDB Local (issue: every run converges with the invariants holding):
 * a few fixed seeds whose plans between them duplicate and delay wakes, race passes, exit
 * invocations part-way, throttle EC2, fail Kubernetes requests and leave a node unregistered.
 * `npm run faults` runs hundreds of seeds the same way.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runCampaign } from '../../bin/cli/simulate/faults/fault-campaign.ts';
import { makeLocalClient, useDynamoDbLocal } from '../support/dynamodb-local.ts';

const endpoint = useDynamoDbLocal();
const clients: { destroy(): void }[] = [];

afterAll(() => {
  for (const client of clients) client.destroy();
});

/** Small runs whose plans cover most kinds of fault (see RELIABILITY.md for the campaign). */
const SEEDS = [2393, 86];

describe('fault injection on DynamoDB Local', () => {
  it('every seeded run converges with its faults survived', async () => {
    const client = makeLocalClient(endpoint());
    clients.push(client);
    const results = await runCampaign(client, { seeds: SEEDS, jobs: SEEDS.length });
    for (const result of results) {
      expect(result.problems, `seed ${result.seed}`).toEqual([]);
    }
    const kinds = new Set(results.flatMap((r) => Object.keys(r.faults)));
    expect([...kinds].filter((k) => k.startsWith('process exit')).length).toBeGreaterThan(0);
    expect(kinds).toContain('wake duplicated');
    expect(kinds).toContain('concurrent pass');
  }, 120_000);
});
