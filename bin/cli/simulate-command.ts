/**
 * `nodesmith simulate` (docs/design.md §6.4): the real relay and controller handlers against a
 * simulated cloud and cluster, in simulated time. Prints the timeline as it goes (or one JSON
 * summary with `-o json`) and writes a self-contained HTML report.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { removedPermissions } from '../../simulator/kubernetes-rbac/removed-permissions.ts';
import { renderHtmlReport } from '../../simulator/report/html-report.ts';
import { runSimulation } from '../../simulator/run/run-simulation.ts';
import type { SimulationReport } from '../../simulator/run/simulation-report.ts';
import type { WakePath } from '../../simulator/run/world.ts';
import { BUILT_IN_SCENARIOS } from '../../simulator/scenarios/built-in-scenarios.ts';
import { scenarioFromFiles } from '../../simulator/scenarios/from-files.ts';
import type { Scenario } from '../../simulator/scenarios/scenario.ts';
import { clusterLimitsFromFile } from './limits-file.ts';
import { readManifests } from './snapshot-from-files.ts';
import { unschedulableTable } from './unschedulable-table.ts';
import { UsageError } from './usage-error.ts';

interface SimulateOptions {
  readonly file: string[];
  readonly recursive?: boolean;
  readonly region: string;
  readonly zones?: string;
  readonly scenario: string;
  readonly pods: string;
  readonly seed: string;
  readonly output: string;
  readonly report: string;
  readonly wake?: string;
  readonly duplicateWakes?: boolean;
  readonly dynamodbLocal?: boolean;
  readonly limits?: string;
  readonly adoptKarpenterNodes?: boolean;
  readonly deployed?: boolean;
  readonly deny?: string;
  readonly selfManaged?: boolean;
}

function wholeNumber(option: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${option} must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return n;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** The scenario with the cluster's limits of `--limits FILE`, as `plan --limits` takes them. */
function scenarioFor(options: SimulateOptions): Scenario {
  const scenario = builtScenario(options);
  if (options.limits === undefined) return scenario;
  const limits = clusterLimitsFromFile(options.limits).spec.limits;
  return {
    ...scenario,
    clusterLimits: Object.fromEntries(Object.entries(limits).map(([k, v]) => [k, String(v)])),
  };
}

function builtScenario(options: SimulateOptions): Scenario {
  if (options.file.length > 0) {
    const seed = wholeNumber('--seed', options.seed, 0, 2 ** 31 - 1);
    const zones =
      options.zones
        ?.split(',')
        .map((z) => z.trim())
        .filter(Boolean) ?? ['a', 'b', 'c'].map((z) => `${options.region}${z}`);
    return scenarioFromFiles(readManifests(options.file, options.recursive), seed, {
      region: options.region,
      zones,
    });
  }
  const build = BUILT_IN_SCENARIOS[options.scenario];
  if (build === undefined) {
    throw new UsageError(
      `--scenario must be one of ${Object.keys(BUILT_IN_SCENARIOS).join(', ')}, got "${options.scenario}"`,
    );
  }
  const seed = wholeNumber('--seed', options.seed, 0, 2 ** 31 - 1);
  return build(seed, wholeNumber('--pods', options.pods, 1, 5000));
}

function summaryText(report: SimulationReport, reportPath: string): string {
  const { summary: s } = report;
  const held = s.invariants.filter((i) => i.held).length;
  const failed = s.invariants.filter((i) => !i.held).map((i) => `  ✗ ${i.name}: ${i.detail}`);
  return [
    '',
    `${s.scenario}: ${s.pods.running}/${s.pods.total} pods running on ${s.nodes.running} nodes, $${s.costPerHour.toFixed(4)}/h`,
    `  launches ${s.launches}, re-planned pods ${s.replans}, duplicate launches ${s.duplicateLaunches}, leaked instances ${s.leakedInstances}`,
    `  decision latency p50 ${s.decisionLatencyMs.p50 / 1000}s, p99 ${s.decisionLatencyMs.p99 / 1000}s (simulated time)`,
    `  invariants: ${held} of ${s.invariants.length} held`,
    ...failed,
    ...(s.unschedulable.length > 0 ? ['', unschedulableTable(s.unschedulable), ''] : []),
    `report: ${reportPath}`,
    '',
  ].join('\n');
}

async function runSimulate(options: SimulateOptions): Promise<void> {
  if (options.output !== 'json' && options.output !== 'text') {
    throw new UsageError(`--output must be text or json, got "${options.output}"`);
  }
  const scenario = scenarioFor(options);
  // The handlers' logs and metrics go to CloudWatch in Lambda; here they would bury the timeline.
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  if (options.deny !== undefined && !options.deployed) {
    throw new UsageError('--deny takes effect only with --deployed');
  }
  if (options.selfManaged && !options.deployed) {
    throw new UsageError('--self-managed takes effect only with --deployed');
  }
  const wake = wakePath(options);
  if (options.deployed) {
    await runDeployed(scenario, options, wake);
    return;
  }
  // DynamoDB Local (a Java process) is loaded only when asked for.
  const dynamodb = options.dynamodbLocal
    ? await (
        await import('../../functions/adapters/dynamodb/dynamodb-local.ts')
      ).startLocalStateStore()
    : undefined;
  const report = await runSimulation(scenario, {
    ...runOptions(options),
    wake,
    ...(dynamodb ? { state: dynamodb.state } : {}),
  }).finally(() => dynamodb?.stop());
  tell(report, options);
}

const WAKE_PATHS: readonly WakePath[] = ['admission', 'audit', 'tick'];

/** `--wake`: the admission webhook unless told otherwise, deployed or not. */
function wakePath(options: SimulateOptions): WakePath {
  const wake = options.wake ?? 'admission';
  if (!WAKE_PATHS.includes(wake as WakePath)) {
    throw new UsageError(`--wake must be one of ${WAKE_PATHS.join(', ')}, got "${wake}"`);
  }
  return wake as WakePath;
}

/** What every run takes from the command line. */
function runOptions(options: SimulateOptions) {
  const text = options.output === 'text';
  return {
    seed: Number(options.seed),
    ...(options.duplicateWakes ? { duplicateWakes: true } : {}),
    ...(options.adoptKarpenterNodes ? { adoptKarpenterNodes: true } : {}),
    ...(text ? { onProgress: (line: string) => process.stdout.write(`${line}\n`) } : {}),
  };
}

/**
 * `--deployed`: the stack synthesized as `cdk synth` does (kept by a hash of its inputs), its
 * state on DynamoDB Local, its functions from their bundles (simulator/deployed).
 */
async function runDeployed(
  scenario: Scenario,
  options: SimulateOptions,
  wake: WakePath,
): Promise<void> {
  const deny = options.deny === undefined ? [] : options.deny.split(',').filter((a) => a !== '');
  try {
    removedPermissions(deny);
  } catch (error) {
    throw new UsageError(`--deny: ${(error as Error).message}`);
  }
  const { deployedRun } = await import('../../simulator/deployed/deployed-run.ts');
  const report = await deployedRun(scenario, {
    ...runOptions(options),
    wake,
    deny,
    ...(options.selfManaged ? { selfManaged: true } : {}),
  });
  tell(report, options);
}

/** Writes the HTML report and prints the summary; exit status 1 when an invariant failed. */
function tell(report: SimulationReport, options: SimulateOptions): void {
  const text = options.output === 'text';
  const reportPath = resolve(options.report);
  writeFileSync(reportPath, renderHtmlReport(report));
  if (text) process.stdout.write(summaryText(report, reportPath));
  else process.stdout.write(`${JSON.stringify(report.summary)}\n`);
  if (report.summary.invariants.some((i) => !i.held)) process.exitCode = 1;
}

export function addSimulateCommand(program: Command): void {
  const command = program
    .command('simulate')
    .description(
      'watch Nodesmith turn pending pods into running nodes in a simulated cluster and cloud, and write an HTML report',
    )
    .option('--scenario <name>', `one of ${Object.keys(BUILT_IN_SCENARIOS).join(', ')}`, 'burst')
    .option(
      '-f, --file <file>',
      'simulate your own files or directories instead: what plan reads (repeatable)',
      collect,
      [],
    )
    .option('-R, --recursive', 'read the subdirectories of -f directories too')
    .option('--region <region>', 'the region of the -f files', 'us-east-1')
    .option('--zones <zones>', 'comma-separated zones for the -f files (default <region>a,b,c)')
    .option('--pods <count>', 'pods the scenario creates', '300')
    .option('--seed <number>', 'the same seed gives the same run', '1')
    .option(
      '-o, --output <format>',
      'text (timeline and summary) or json (the summary only)',
      'text',
    )
    .option('--report <file>', 'where to write the HTML report', 'nodesmith-report.html')
    .option('--limits <file>', "the cluster's limits: a ClusterLimits document, as plan takes it")
    .option(
      '--wake <path>',
      'how pending pods wake the controller: admission (the webhook), audit (the audit log) or tick (the schedule only); admission by default',
    )
    .option('--duplicate-wakes', 'deliver every wake twice, as at-least-once queues may')
    .option(
      '--adopt-karpenter-nodes',
      "adopt Karpenter's nodes of Nodesmith's NodePools, as the stack's adoptKarpenterNodes setting",
    )
    .action((options: SimulateOptions) => runSimulate(options));
  withRuntimeOptions(command);
}

/** Where Nodesmith's state and functions live for the run. */
function withRuntimeOptions(command: Command): void {
  command
    .option(
      '--dynamodb-local',
      'keep the state in DynamoDB Local (needs Java 17) instead of memory',
    )
    .option(
      '--deployed',
      "run Nodesmith as cdk deploy makes it: each function's bundle in its own process, AWS over HTTP with IAM enforced, DynamoDB Local (needs Java 17)",
    )
    .option(
      '--deny <actions>',
      'with --deployed: remove these IAM actions (ec2:CreateFleet) or Kubernetes permissions (k8s:patch:nodes) from every role, comma-separated',
    )
    .option(
      '--self-managed',
      "with --deployed: deploy for a self-managed cluster, reached with the kubeconfig secret's token, whose kube-apiserver posts its audit log to the stack's audit webhook",
    );
}
