/**
 * A seeded fault run on DynamoDB Local converges with the invariants holding: wakes duplicated
 * and late, passes racing, an invocation exiting part-way, EC2 throttling, Kubernetes failing
 * requests. `npm run faults` runs hundreds of seeds the same way.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runCampaign } from '../../simulator/faults/fault-campaign.ts';
import { makeLocalClient, useDynamoDbLocal } from '../support/dynamodb-local.ts';

const endpoint = useDynamoDbLocal();
const clients: { destroy(): void }[] = [];

afterAll(() => {
  for (const client of clients) client.destroy();
});

/**
 * A small run whose plan exits an invocation after CreateFleet filled its claim and before the
 * claim recorded the instance, among other faults (RELIABILITY.md has the whole campaign).
 */
const SEED = 12328;

describe('fault injection on DynamoDB Local', () => {
  it('a seeded run converges with its faults survived', async () => {
    const client = makeLocalClient(endpoint());
    clients.push(client);
    const [result] = await runCampaign(client, { seeds: [SEED], jobs: 1 });
    expect(result?.problems).toEqual([]);
    expect(Object.keys(result?.faults ?? {})).toEqual(
      expect.arrayContaining([
        'process exit after cloud.launch',
        'wake duplicated',
        'concurrent pass',
        'EC2 throttling',
      ]),
    );
  }, 120_000);
});
