/** The API function's composition root starts from the environment alone, and names what is missing. */
import { afterEach, describe, expect, it, vi } from 'vitest';

const ENVIRONMENT = {
  AWS_REGION: 'us-east-1',
  CLUSTER_NAME: 'shop-prod',
  STATE_TABLE: 'nodesmith-shop-prod-state',
  CLAIMS_TABLE: 'nodesmith-shop-prod-claims',
  WORK_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/111122223333/nodesmith-work',
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('the API composition root', () => {
  it('starts from the environment alone', async () => {
    for (const [name, value] of Object.entries(ENVIRONMENT)) vi.stubEnv(name, value);
    const { handler } = await import('../../../functions/handlers/api/index.ts');
    expect(typeof handler).toBe('function');
  });

  it('names the setting that is missing', async () => {
    for (const [name, value] of Object.entries(ENVIRONMENT)) vi.stubEnv(name, value);
    vi.stubEnv('WORK_QUEUE_URL', '');
    await expect(import('../../../functions/handlers/api/index.ts')).rejects.toThrow(
      'starting the API: WORK_QUEUE_URL is not set',
    );
  });
});
