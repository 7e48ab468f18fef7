/**
 * The planning budget of docs/design.md §7.1 as it is stated: the whole `nodesmith plan` process
 * on Karpenter's diverse mix against the same process built from an earlier commit, on the same
 * files, on the same machine, in one run. Runs alternate between the two builds (and which goes
 * first), so a load that comes and goes on a shared machine weighs on both alike; the ratio is
 * what to read, not the seconds. Each side's plan is kept and compared byte for byte.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodePool } from '../functions/domain/node-pool.ts';
import { buildBaselineCli } from './baseline-cli.ts';
import { median } from './median.ts';
import { type PlanProcessRun, runPlanProcess } from './plan-process.ts';
import { diversePods } from './pod-mixes.ts';
import { podListYaml } from './pod-yaml.ts';

/** The commit the budget is stated against. */
export const PLAN_BASELINE = 'dbb441a';

interface Side {
  readonly cli: string;
  readonly runs: PlanProcessRun[];
  /** The plan of the unmeasured first run. */
  plan: string;
}

interface PlanSummary {
  readonly newNodeClaims: number;
  readonly pricePerHour: number;
}

function summaryOf(plan: string): PlanSummary {
  return (JSON.parse(plan) as { summary: PlanSummary }).summary;
}

/** "identical", or what differs between the two plans' summaries. */
function comparePlans(baseline: string, current: string): string {
  if (baseline === current) return 'identical';
  const before = summaryOf(baseline);
  const after = summaryOf(current);
  return `differ: ${before.newNodeClaims} claims $${before.pricePerHour}/h before, ${after.newNodeClaims} claims $${after.pricePerHour}/h now`;
}

/** One unmeasured run each (file cache, code cache), then `pairs` pairs, alternating who starts. */
function measurePairs(sides: readonly [Side, Side], file: string, dir: string, pairs: number) {
  const rssFile = join(dir, 'rss');
  sides.forEach((side, i) => {
    const output = join(dir, `plan-${i}.json`);
    runPlanProcess(side.cli, file, rssFile, output);
    side.plan = readFileSync(output, 'utf8');
  });
  for (let pair = 0; pair < pairs; pair++) {
    const order = pair % 2 === 0 ? sides : [sides[1], sides[0]];
    for (const side of order) side.runs.push(runPlanProcess(side.cli, file, rssFile));
  }
}

function seconds(side: Side): number {
  return median(side.runs.map((r) => r.seconds));
}

function peakMiB(side: Side): number {
  return Math.max(...side.runs.map((r) => r.rssBytes)) / 2 ** 20;
}

/** The median over pairs of current ÷ baseline: steadier than a ratio of medians under load. */
function pairedRatio(baseline: Side, current: Side): number {
  return median(baseline.runs.map((b, i) => (current.runs[i]?.seconds ?? Number.NaN) / b.seconds));
}

export interface PairedCase {
  readonly pods: number;
  readonly pairs: number;
}

/** `commit` defaults to BENCH_BASELINE, else the commit the budget names. */
export function benchPairedPlan(
  nodePool: NodePool,
  cases: readonly PairedCase[],
  commit = process.env.BENCH_BASELINE ?? PLAN_BASELINE,
): void {
  const baselineCli = buildBaselineCli(commit);
  const dir = mkdtempSync(join(tmpdir(), 'nodesmith-paired-'));
  try {
    console.log(
      `\nwhole \`nodesmith plan -f … -o json\`, diverse mix, any-type NodePool: ${baselineCli.commit} and this tree alternating (medians)`,
    );
    console.log(
      `| pods | pairs | ${baselineCli.commit} | this tree | ratio of medians | ratio per pair (median) | peak RSS ${baselineCli.commit} | peak RSS this tree | plans |`,
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const { pods, pairs } of cases) {
      const file = join(dir, `diverse-${pods}.yaml`);
      writeFileSync(file, podListYaml(nodePool, diversePods(pods)));
      const baseline: Side = { cli: baselineCli.cli, runs: [], plan: '' };
      const current: Side = { cli: 'bin/nodesmith.mjs', runs: [], plan: '' };
      measurePairs([baseline, current], file, dir, pairs);
      const cells = [
        `${pods}`,
        `${pairs}`,
        `${seconds(baseline).toFixed(2)} s`,
        `${seconds(current).toFixed(2)} s`,
        (seconds(current) / seconds(baseline)).toFixed(2),
        pairedRatio(baseline, current).toFixed(2),
        `${Math.round(peakMiB(baseline))} MiB`,
        `${Math.round(peakMiB(current))} MiB`,
        comparePlans(baseline.plan, current.plan),
      ];
      console.log(`| ${cells.join(' | ')} |`);
    }
  } finally {
    baselineCli.remove();
    rmSync(dir, { recursive: true, force: true });
  }
}
