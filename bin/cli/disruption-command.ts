/**
 * `nodesmith disruption`: what voluntary disruption would do now, and why every other managed
 * node stays (docs/design.md §6.3), from the same files `plan` reads plus PodDisruptionBudgets.
 */
import type { Command } from 'commander';
import { BundledInstanceTypes } from '../../functions/adapters/bundled/bundled-instance-types.ts';
import { onDemandPrices } from '../../functions/domain/instance-types/prices.ts';
import { cronSchedules } from '../../functions/use-cases/disruption/cron-schedules.ts';
import { toDisruptionReport } from '../../functions/use-cases/disruption/disruption-report.ts';
import { whatIfDisruption } from '../../functions/use-cases/disruption/what-if-disruption.ts';
import { withComputedBudgetStatus } from './budget-status-from-files.ts';
import { renderDisruptionTable } from './disruption-table.ts';
import { readManifests, snapshotFromManifests } from './snapshot-from-files.ts';
import { UsageError } from './usage-error.ts';

interface DisruptionOptions {
  readonly file: string[];
  readonly recursive?: boolean;
  readonly now?: string;
  readonly region: string;
  readonly zones?: string;
  readonly output: string;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function nowOf(options: DisruptionOptions): number {
  if (options.now === undefined) return Date.now();
  const ms = RFC3339.test(options.now) ? Date.parse(options.now) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new UsageError(
      `--now must be an RFC 3339 time such as 2026-06-01T12:00:00Z, got "${options.now}"`,
    );
  }
  return ms;
}

function checkOptions(options: DisruptionOptions): void {
  if (options.output !== 'json' && options.output !== 'table') {
    throw new UsageError(`--output must be json or table, got "${options.output}"`);
  }
  if (options.file.length === 0) {
    throw new UsageError('give at least one file with -f FILE (- reads standard input)');
  }
}

async function runDisruption(options: DisruptionOptions): Promise<void> {
  checkOptions(options);
  const nowMs = nowOf(options);
  const manifests = readManifests(options.file, options.recursive);
  const read = snapshotFromManifests(manifests);
  const snapshot = {
    ...read,
    podDisruptionBudgets: withComputedBudgetStatus(
      read.podDisruptionBudgets,
      manifests,
      new Date(nowMs),
    ),
  };
  const zones = options.zones
    ?.split(',')
    .map((z) => z.trim())
    .filter(Boolean);
  const prices = onDemandPrices(options.region);
  const provider = new BundledInstanceTypes({
    region: options.region,
    prices,
    ...(zones === undefined ? {} : { zones }),
  });
  const result = await whatIfDisruption(
    snapshot,
    { region: options.region, nowMs, cron: cronSchedules },
    provider,
  );
  for (const warning of result.warnings) process.stderr.write(`warning: ${warning}\n`);
  const report = toDisruptionReport(result.plan);
  const indent = process.stdout.isTTY ? 2 : undefined;
  if (options.output === 'json') process.stdout.write(`${JSON.stringify(report, null, indent)}\n`);
  else process.stdout.write(renderDisruptionTable(report, prices.currency === 'CNY' ? '¥' : '$'));
}

export function addDisruptionCommand(program: Command): void {
  program
    .command('disruption')
    .description(
      'show what voluntary disruption would do now to the nodes in kubectl -o yaml dumps, and why every other node stays',
    )
    .option(
      '-f, --file <file>',
      'a file or directory of Kubernetes objects (repeatable; - for standard input)',
      collect,
      [],
    )
    .option('-R, --recursive', 'read the subdirectories of -f directories too')
    .option('--now <time>', 'decide as of this RFC 3339 time (default: now)')
    .option('--region <region>', 'AWS region whose prices and offerings to use', 'us-east-1')
    .option(
      '--zones <zones>',
      'comma-separated zones (default: the EC2NodeClass subnets, else <region>a,b,c)',
    )
    .option('-o, --output <format>', 'json or table', 'table')
    .action((options: DisruptionOptions) => runDisruption(options));
}
