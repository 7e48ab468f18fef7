/**
 * Runs the `nodesmith plan` command line on a fixture and reads its output, so the conformance
 * cases exercise exactly what users and outside suites run (docs/design.md §6). The cases run the
 * command in this process, through the same `runNodesmith` the binary calls; plan-contract.test.ts
 * runs the built binary itself (`runBinary`), which `npm test`'s pretest step bundles into dist/.
 */
import { fileURLToPath } from 'node:url';
import type { PlanReport, PlanReportClaim } from '../../functions/use-cases/plan/plan-report.ts';
import { type CliResult, runCli as runBuiltCli } from '../support/cli.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/conformance/', import.meta.url));

export type CliRun = CliResult;

/** The path of a fixture file, relative to the repository root as a user would type it. */
export function fixture(name: string): string {
  return `${FIXTURES}${name}.yaml`.slice(ROOT.length);
}

/** The built binary, `node bin/nodesmith.mjs <args>`, from the repository root. */
export function runBinary(args: readonly string[]): Promise<CliRun> {
  return runBuiltCli(args, { cwd: ROOT });
}

/**
 * `nodesmith <args>` run in this process from the repository root (where vitest runs), as the
 * binary runs it: the same parsing, command and exit status.
 */
export async function runCli(args: readonly string[]): Promise<CliRun> {
  if (process.cwd() !== ROOT.replace(/\/$/, '')) {
    throw new Error(`run the conformance cases from ${ROOT}: fixture paths are relative to it`);
  }
  // Imported here, so the cases of the binary alone do not load the command line's modules.
  const { runCliInProcess } = await import('../support/cli-in-process.ts');
  return runCliInProcess(args);
}

const onceRuns = new Map<string, Promise<CliRun>>();

/**
 * `run` (the binary or in this process), once per argument list and test file for cases that only
 * read the output.
 */
export function runCliOnce(
  args: readonly string[],
  run: (args: readonly string[]) => Promise<CliRun> = runCli,
): Promise<CliRun> {
  const key = JSON.stringify([run.name, args]);
  let result = onceRuns.get(key);
  if (result === undefined) {
    result = run(args);
    onceRuns.set(key, result);
  }
  return result;
}

/** `nodesmith plan -f <fixture> -o json`; fails unless the plan was computed (exit 0). */
export async function planOf(name: string, extraArgs: readonly string[] = []): Promise<PlanReport> {
  const run = await runCli(['plan', '-f', fixture(name), '-o', 'json', ...extraArgs]);
  if (run.status !== 0) {
    throw new Error(`plan of ${name} exited ${run.status}: ${run.stderr}`);
  }
  return JSON.parse(run.stdout) as PlanReport;
}

/** The claim a pod was placed on, if any. */
export function claimOf(plan: PlanReport, pod: string): PlanReportClaim | undefined {
  return plan.nodeClaims.find((c) => c.pods.includes(pod));
}

/** Where a pod went: a claim's name, an existing node's name, or undefined when unschedulable. */
export function placementOf(plan: PlanReport, pod: string): string | undefined {
  return claimOf(plan, pod)?.name ?? plan.existingNodes.find((n) => n.pods.includes(pod))?.name;
}

export function unschedulablePods(plan: PlanReport): string[] {
  return plan.unschedulable.map((u) => u.pod).sort();
}

export function scheduledPods(plan: PlanReport): string[] {
  return [
    ...plan.nodeClaims.flatMap((c) => c.pods),
    ...plan.existingNodes.flatMap((n) => n.pods),
  ].sort();
}

/**
 * How many of the pods whose name starts with `prefix` landed in each value of a claim label
 * (zone, capacity type, arch …), e.g. `{ 'us-east-1a': 2, 'us-east-1b': 1 }`.
 */
export function podsPerLabel(plan: PlanReport, label: string, prefix = ''): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const claim of plan.nodeClaims) {
    const value = claim.labels[label] ?? '<none>';
    const pods = claim.pods.filter((p) => p.startsWith(prefix)).length;
    if (pods > 0) counts[value] = (counts[value] ?? 0) + pods;
  }
  return counts;
}

/** The per-domain counts sorted ascending, for Karpenter's `ConsistOf(1, 1, 2)` style checks. */
export function sortedCounts(counts: Record<string, number>): number[] {
  return Object.values(counts).sort((a, b) => a - b);
}

/** `default/web-1 … default/web-n`, the names fixtures give to a set of alike pods. */
export function podNames(prefix: string, count: number, namespace = 'default'): string[] {
  return Array.from({ length: count }, (_, i) => `${namespace}/${prefix}-${i + 1}`);
}

export const ZONE = 'topology.kubernetes.io/zone';
export const CAPACITY_TYPE = 'karpenter.sh/capacity-type';
export const ARCH = 'kubernetes.io/arch';
export const INSTANCE_TYPE = 'node.kubernetes.io/instance-type';

/** The contract's core promise: every pending pod is reported exactly once. */
export function reportedPods(plan: PlanReport): string[] {
  return [...scheduledPods(plan), ...plan.unschedulable.map((u) => u.pod)].sort();
}
