import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The test files that use DynamoDB Local (they call `useDynamoDbLocal` or `useFreshStateStores`
 * of test/support/dynamodb-local.ts). They form a project of their own, whose `globalSetup`
 * starts one instance for all of them, and only when one of them runs.
 */
function filesUsingDynamoDbLocal(): string[] {
  const root = new URL('./', import.meta.url);
  return readdirSync(new URL('test/', root), { recursive: true, encoding: 'utf8' })
    .map((file) => `test/${file.replaceAll('\\', '/')}`)
    .filter((file) => file.endsWith('.test.ts'))
    .filter((file) =>
      /\buse(DynamoDbLocal|FreshStateStores)\(/.test(readFileSync(new URL(file, root), 'utf8')),
    );
}

const dynamoDbFiles = filesUsingDynamoDbLocal();

export default defineConfig({
  test: {
    // The handlers log and emit metrics through Powertools; tests read reports, not stdout.
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One worker per core: most files are CPU-bound, and the default leaves one core idle.
    maxWorkers: availableParallelism(),
    // A worker runs file after file on the modules it has loaded (the command line, the AWS SDK,
    // the simulated world) instead of a new process loading them again for each. No file relies
    // on a fresh module state: those that change the environment put it back (vi.unstubAllEnvs).
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'dynamodb-local',
          include: dynamoDbFiles,
          globalSetup: ['test/support/dynamodb-local.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...dynamoDbFiles],
        },
      },
    ],
  },
});
