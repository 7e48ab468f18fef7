/**
 * The composition roots of the functions that keep state: each starts from the environment the
 * stack sets without calling AWS, and names the setting that is missing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const ENVIRONMENT = {
  AWS_REGION: 'us-east-1',
  CLUSTER_NAME: 'shop-prod',
  STATE_TABLE: 'nodesmith-shop-prod-state',
  CLAIMS_TABLE: 'nodesmith-shop-prod-claims',
  WORK_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/111122223333/nodesmith-work',
};

const ROOTS = [
  {
    folder: 'api',
    environment: ENVIRONMENT,
    missing: 'WORK_QUEUE_URL',
    error: 'starting the API: WORK_QUEUE_URL is not set',
  },
  {
    folder: 'controller',
    environment: { ...ENVIRONMENT, EVENT_BUS_NAME: 'nodesmith-shop-prod' },
    missing: 'CLAIMS_TABLE',
    error: 'starting the controller: CLAIMS_TABLE is not set',
  },
  {
    folder: 'interruption',
    environment: ENVIRONMENT,
    missing: 'WORK_QUEUE_URL',
    error: 'starting the interruption function: WORK_QUEUE_URL is not set',
  },
];

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe.each(ROOTS)('the $folder composition root', ({ folder, environment, missing, error }) => {
  const start = () => import(`../../functions/handlers/${folder}/index.ts`);

  it('starts from the environment alone', async () => {
    for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
    const { handler } = await start();
    expect(typeof handler).toBe('function');
  });

  it('names the setting that is missing', async () => {
    for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
    vi.stubEnv(missing, '');
    await expect(start()).rejects.toThrow(error);
  });
});
