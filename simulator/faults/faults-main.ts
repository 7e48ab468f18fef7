/**
 * `npm run faults`: seeded fault runs in the simulated world on DynamoDB Local. Prints each
 * failure with its seed as it happens and a line of progress every 25 runs, then the runs, the faults injected by kind, the faults
 * survived and the seeds to repeat. `--seed N` repeats one run and prints its plan and faults.
 *
 *   npm run faults                      300 runs, seeds 1 to 300
 *   npm run faults -- --runs 50 --from 1000 --jobs 4
 *   npm run faults -- --seed 137
 *
 * Exit status 1 when a run did not converge, 2 for bad options.
 */
import { parseArgs } from 'node:util';

// The handlers log through Powertools; a campaign reports runs, not passes.
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

const { makeLocalClient, startDynamoDbLocal } = await import(
  '../../functions/adapters/dynamodb/dynamodb-local.ts'
);
const { runCampaign } = await import('./fault-campaign.ts');
const { campaignSummary } = await import('./fault-summary.ts');

/** A line of progress every so many runs. */
const PROGRESS_EVERY = 25;

function count(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    process.stderr.write(`--${name} must be a whole number, got "${value}"\n`);
    process.exit(2);
  }
  return n;
}

const { values } = parseArgs({
  options: {
    runs: { type: 'string' },
    from: { type: 'string' },
    seed: { type: 'string' },
    jobs: { type: 'string' },
  },
});
const single = values.seed === undefined ? undefined : count('seed', values.seed, 0);
const runs = count('runs', values.runs, 300);
const from = count('from', values.from, 1);
const seeds = single === undefined ? Array.from({ length: runs }, (_, i) => from + i) : [single];

const local = await startDynamoDbLocal();
const client = makeLocalClient(local.endpoint);
const started = Date.now();
let done = 0;
let failed = 0;
try {
  const results = await runCampaign(client, {
    seeds,
    jobs: count('jobs', values.jobs, 4),
    onResult: (result) => {
      done += 1;
      if (!result.converged) {
        failed += 1;
        process.stdout.write(
          `seed ${result.seed} did not converge: ${result.problems.join('; ')}\n`,
        );
      }
      if (done % PROGRESS_EVERY === 0 && done < seeds.length) {
        const seconds = ((Date.now() - started) / 1000).toFixed(0);
        process.stdout.write(`${done} of ${seeds.length} runs, ${failed} failed, ${seconds} s\n`);
      }
    },
  });
  const summary = campaignSummary(results, Date.now() - started);
  process.stdout.write(`${summary.text}\n`);
  if (single !== undefined) process.stdout.write(`${JSON.stringify(results[0], null, 2)}\n`);
  process.exitCode = summary.failed > 0 ? 1 : 0;
} finally {
  client.destroy();
  await local.stop();
}
