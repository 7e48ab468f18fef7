/**
 * `nodesmith plan`: a what-if plan (docs/design.md §6.2). Pods and nodes come from manifest files
 * and/or a live cluster (--kubeconfig); NodePools, EC2NodeClasses and NodeOverlays from the files
 * or from Nodesmith's state table (--state-table).
 */
import type { Command } from 'commander';
import { BundledInstanceTypes } from '../../functions/adapters/bundled/bundled-instance-types.ts';
import type { ClusterSnapshot } from '../../functions/domain/cluster-snapshot.ts';
import { onDemandPrices } from '../../functions/domain/instance-types/prices.ts';
import { type PlanReport, toPlanReport } from '../../functions/use-cases/plan/plan-report.ts';
import { planReportJson } from '../../functions/use-cases/plan/plan-report-json.ts';
import { whatIfPlan } from '../../functions/use-cases/plan/what-if-plan.ts';
import { clusterLimitsFromFile } from './limits-file.ts';
import { renderPlanTable } from './plan-table.ts';
import { snapshotFromFiles } from './snapshot-from-files.ts';
import { UsageError } from './usage-error.ts';

interface PlanOptions {
  readonly file: string[];
  readonly recursive?: boolean;
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly stateTable?: string;
  readonly limits?: string;
  readonly region: string;
  readonly zones?: string;
  readonly output: string;
}

/** DynamoDB's rule for table names; an ARN names a table in another account. */
const TABLE_NAME = /^(?:[A-Za-z0-9_.-]{3,255}|arn:\S+)$/;

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function checkOptions(options: PlanOptions): void {
  if (options.output !== 'json' && options.output !== 'table') {
    throw new UsageError(`--output must be json or table, got "${options.output}"`);
  }
  if (options.file.length === 0 && options.kubeconfig === undefined) {
    throw new UsageError(
      'give at least one file with -f FILE (- reads standard input), or a cluster with --kubeconfig',
    );
  }
  if (options.context !== undefined && options.kubeconfig === undefined) {
    throw new UsageError('--context needs --kubeconfig');
  }
  if (options.stateTable !== undefined && !TABLE_NAME.test(options.stateTable)) {
    throw new UsageError(
      `--state-table must be a DynamoDB table name (3-255 of A-Z a-z 0-9 _ . -) or ARN, got "${options.stateTable}"`,
    );
  }
}

/**
 * Pools come from files or from the store, never a silent mix of both. Overlays too: the table's
 * are the ones the controller prices with, and a file's would silently replace or join them.
 */
async function withStoredPools(
  fromFiles: ClusterSnapshot,
  options: PlanOptions,
): Promise<ClusterSnapshot> {
  const { stateTable } = options;
  if (stateTable === undefined) return fromFiles;
  const inFiles = [
    ...fromFiles.nodePools.map((pool) => `NodePool ${pool.metadata.name}`),
    ...fromFiles.nodeClasses.map((nodeClass) => `EC2NodeClass ${nodeClass.metadata.name}`),
    ...fromFiles.nodeOverlays.map((overlay) => `NodeOverlay ${overlay.metadata.name}`),
  ];
  if (inFiles.length > 0) {
    const more = inFiles.length > 1 ? ` and ${inFiles.length - 1} more` : '';
    throw new UsageError(
      `NodePools, EC2NodeClasses and NodeOverlays come from --state-table ${stateTable}, but the -f files hold ${inFiles[0]}${more}; remove them from the files or drop --state-table`,
    );
  }
  const { poolsFromState } = await import('./pools-from-state.ts');
  const stored = await poolsFromState({ name: stateTable, region: options.region });
  return { ...fromFiles, ...stored };
}

/** The cluster's limits from --limits, which wins over those the state table holds. */
function withLimitsFile(snapshot: ClusterSnapshot, options: PlanOptions): ClusterSnapshot {
  if (options.limits === undefined) return snapshot;
  return { ...snapshot, clusterLimits: clusterLimitsFromFile(options.limits) };
}

async function snapshotFor(options: PlanOptions): Promise<ClusterSnapshot> {
  const files = snapshotFromFiles(options.file, options.recursive);
  const snapshot = withLimitsFile(await withStoredPools(files, options), options);
  if (options.kubeconfig === undefined) return snapshot;
  if (snapshot.nodePools.length === 0) {
    throw new UsageError(
      'with --kubeconfig, give the NodePools (and EC2NodeClasses) to plan with in -f files or with --state-table',
    );
  }
  const { snapshotFromCluster } = await import('./snapshot-from-cluster.ts');
  return snapshotFromCluster(options.kubeconfig, options.context, snapshot);
}

/** Indented for people at a terminal; compact when piped, where size and speed matter more. */
function writeJson(report: PlanReport): void {
  if (process.stdout.isTTY) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  process.stdout.write(planReportJson(report));
  process.stdout.write('\n');
}

async function runPlan(options: PlanOptions): Promise<void> {
  checkOptions(options);
  const zones = options.zones
    ?.split(',')
    .map((z) => z.trim())
    .filter(Boolean);
  const snapshot = await snapshotFor(options);
  const instanceTypes = new BundledInstanceTypes({
    region: options.region,
    prices: onDemandPrices(options.region),
    ...(zones === undefined ? {} : { zones }),
  });
  const result = await whatIfPlan(snapshot, { region: options.region }, instanceTypes);
  for (const warning of result.warnings) process.stderr.write(`warning: ${warning}\n`);
  const report = toPlanReport(result);
  if (options.output === 'json') writeJson(report);
  else process.stdout.write(renderPlanTable(report, result.currency === 'CNY' ? '¥' : '$'));
}

export function addPlanCommand(program: Command): void {
  program
    .command('plan')
    .description(
      'show which nodes Nodesmith would launch for the pending pods in kubectl -o yaml dumps or a live cluster',
    )
    .option(
      '-f, --file <file>',
      'a file or directory of Kubernetes objects (repeatable; - for standard input)',
      collect,
      [],
    )
    .option('-R, --recursive', 'read the subdirectories of -f directories too')
    .option(
      '--region <region>',
      'AWS region to price and place in, and of the --state-table',
      'us-east-1',
    )
    .option(
      '--zones <zones>',
      'comma-separated zones (default: the EC2NodeClass subnets, else <region>a,b,c)',
    )
    .option('-o, --output <format>', 'json or table', 'table')
    .option(
      '--kubeconfig <file>',
      'plan for the pending pods of a live cluster (read-only); NodePools come from -f or --state-table',
    )
    .option('--context <name>', 'the kubeconfig context to use (default: its current-context)')
    .option(
      '--state-table <name>',
      "take NodePools, EC2NodeClasses and NodeOverlays from Nodesmith's DynamoDB state table (read-only) instead of -f",
    )
    .option(
      '--limits <file>',
      'a ClusterLimits document (nodesmith.io/v1) every NodePool counts against together',
    )
    .action((options: PlanOptions) => runPlan(options));
}
