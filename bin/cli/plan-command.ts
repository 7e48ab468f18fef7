/** `nodesmith plan`: a what-if plan from manifest files (DESIGN §5). */
import type { Command } from 'commander';
import { toPlanReport } from '../../functions/use-cases/plan/plan-report.ts';
import { type ClusterSnapshot, whatIfPlan } from '../../functions/use-cases/plan/what-if-plan.ts';
import { renderPlanTable } from './plan-table.ts';
import { snapshotFromFiles } from './snapshot-from-files.ts';
import { UsageError } from './usage-error.ts';

interface PlanOptions {
  readonly file: string[];
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly region: string;
  readonly zones?: string;
  readonly output: string;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

async function snapshotFor(options: PlanOptions): Promise<ClusterSnapshot> {
  const fromFiles = snapshotFromFiles(options.file);
  if (options.kubeconfig === undefined) return fromFiles;
  if (fromFiles.nodePools.length === 0) {
    throw new UsageError(
      'with --kubeconfig, give the NodePools (and EC2NodeClasses) to plan with in -f files',
    );
  }
  const { snapshotFromCluster } = await import('./snapshot-from-cluster.ts');
  return snapshotFromCluster(options.kubeconfig, options.context, fromFiles);
}

async function runPlan(options: PlanOptions): Promise<void> {
  if (options.output !== 'json' && options.output !== 'table') {
    throw new UsageError(`--output must be json or table, got "${options.output}"`);
  }
  if (options.file.length === 0) {
    throw new UsageError('give at least one file with -f FILE (- reads standard input)');
  }
  if (options.context !== undefined && options.kubeconfig === undefined) {
    throw new UsageError('--context needs --kubeconfig');
  }
  const zones = options.zones
    ?.split(',')
    .map((z) => z.trim())
    .filter(Boolean);
  const snapshot = await snapshotFor(options);
  const result = whatIfPlan(snapshot, {
    region: options.region,
    ...(zones === undefined ? {} : { zones }),
  });
  for (const warning of result.warnings) process.stderr.write(`warning: ${warning}\n`);
  const report = toPlanReport(result);
  // Indented for people at a terminal; compact when piped, where size and speed matter more.
  const indent = process.stdout.isTTY ? 2 : undefined;
  if (options.output === 'json') process.stdout.write(`${JSON.stringify(report, null, indent)}\n`);
  else process.stdout.write(renderPlanTable(report, result.currency === 'CNY' ? '¥' : '$'));
}

export function addPlanCommand(program: Command): void {
  program
    .command('plan')
    .description(
      'show which nodes Nodesmith would launch for the pending pods in kubectl -o yaml dumps',
    )
    .option(
      '-f, --file <file>',
      'a file of Kubernetes objects (repeatable; - for standard input)',
      collect,
      [],
    )
    .option('--region <region>', 'AWS region to price and place in', 'us-east-1')
    .option(
      '--zones <zones>',
      'comma-separated zones (default: the EC2NodeClass subnets, else <region>a,b,c)',
    )
    .option('-o, --output <format>', 'json or table', 'table')
    .option(
      '--kubeconfig <file>',
      'plan for the pending pods of a live cluster (read-only); NodePools still come from -f',
    )
    .option('--context <name>', 'the kubeconfig context to use (default: its current-context)')
    .action((options: PlanOptions) => runPlan(options));
}
