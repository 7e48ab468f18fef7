/**
 * The karpenter-blueprints node-overlay blueprint through the built binary: its GPU time-slicing
 * overlay makes four one-GPU pods share one node, its generation overlays steer the targeted
 * pool to the newest generation, and two overlays of one weight on the same types are named.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PlanReport } from '../../../functions/use-cases/plan/plan-report.ts';
import { runCliInProcess } from '../../support/cli-in-process.ts';

function fixture(name: string): string {
  const path = `../../fixtures/public/karpenter-blueprints/blueprints/node-overlay/${name}`;
  return fileURLToPath(new URL(path, import.meta.url));
}

const GPU_POOL = ['-f', fixture('gpu-nodeclass.yaml'), '-f', fixture('gpu-nodepool.yaml')];
const GPU_SLICES = ['-f', fixture('node-overlay-gpu-slices.yaml')];
const GPU_WORKLOAD = ['-f', fixture('workload-gpu-slices.yaml')];
const TARGETED = ['-f', fixture('nodepool-targeted.yaml'), '-f', fixture('workload-targeted.yaml')];

async function plan(args: readonly string[]) {
  const run = await runCliInProcess(['plan', ...args, '-o', 'json']);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as PlanReport;
}

/** The blueprint's workload scaled as its README does (`kubectl scale --replicas=N`). */
function scaledWorkload(replicas: number): string[] {
  const file = join(mkdtempSync(join(tmpdir(), 'nodesmith-overlay-')), 'workload.yaml');
  const text = readFileSync(fixture('workload-gpu-slices.yaml'), 'utf8');
  writeFileSync(file, text.replace('replicas: 4', `replicas: ${replicas}`));
  return ['-f', file];
}

describe('NodeOverlay from the node-overlay blueprint', () => {
  it('fits the four GPU-slice pods on one one-GPU node, as the blueprint expects', async () => {
    // Act
    const { nodeClaims } = await plan([...GPU_POOL, ...GPU_SLICES, ...GPU_WORKLOAD]);

    // Assess
    expect(nodeClaims).toHaveLength(1);
    expect(nodeClaims[0]?.pods).toHaveLength(4);
    expect(nodeClaims[0]?.labels['karpenter.k8s.aws/instance-gpu-count']).toBe('1');
  });

  it('without the overlay, gives each pod its own GPU', async () => {
    // Act
    const { nodeClaims } = await plan([...GPU_POOL, ...GPU_WORKLOAD]);

    // Assess
    expect(nodeClaims.map((c) => c.pods.length)).toEqual([1, 1, 1, 1]);
  });

  it('needs five GPUs for 17 replicas: 17 / 4 rounded up, as the blueprint README says', async () => {
    // Act
    const { nodeClaims } = await plan([...GPU_POOL, ...GPU_SLICES, ...scaledWorkload(17)]);

    // Assess
    const gpus = nodeClaims.map((c) => Number(c.labels['karpenter.k8s.aws/instance-gpu-count']));
    expect(gpus.reduce((a, b) => a + b, 0)).toBe(5);
    expect(nodeClaims.flatMap((c) => c.pods)).toHaveLength(17);
  });

  it('steers the targeted pool from a generation 6 type to a generation 8 one', async () => {
    // Act
    const before = await plan(TARGETED);
    const after = await plan([...TARGETED, '-f', fixture('node-overlay-targeted.yaml')]);

    // Assess
    const generation = (p: PlanReport) =>
      p.nodeClaims.map((c) => c.labels['karpenter.k8s.aws/instance-generation']);
    expect(generation(before)).toEqual(['6']);
    expect(generation(after)).toEqual(['8']);
  });

  it('names an overlay left out for conflicting with one of the same weight', async () => {
    // Prepare: a second one-GPU overlay at the same weight, setting the same resource
    const file = join(mkdtempSync(join(tmpdir(), 'nodesmith-overlay-')), 'conflict.yaml');
    const twin = readFileSync(fixture('node-overlay-gpu-slices.yaml'), 'utf8')
      .split('---')
      .find((part) => part.includes('gpu-slices-1gpu'))
      ?.replace('gpu-slices-1gpu', 'gpu-slices-1gpu-twin')
      .replace('nvidia.com/gpu: 4', 'nvidia.com/gpu: 2');
    writeFileSync(file, twin ?? '');

    // Act
    const run = await runCliInProcess([
      'plan',
      ...GPU_POOL,
      ...GPU_SLICES,
      '-f',
      file,
      ...GPU_WORKLOAD,
    ]);

    // Assess: names sort later first, so the twin holds and the blueprint's own is left out
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(
      'warning: NodeOverlay gpu-slices-1gpu is not applied: it conflicts with NodeOverlay gpu-slices-1gpu-twin, which has the same weight and sets the same price or resource\n',
    );
    expect(run.stdout).toContain('2 new node claims');
  });

  it('simulate -f launches one node for the four pods and runs them all on it', async () => {
    // Prepare
    const report = join(mkdtempSync(join(tmpdir(), 'nodesmith-overlay-')), 'report.html');

    // Act
    const run = await runCliInProcess([
      'simulate',
      ...GPU_POOL,
      ...GPU_SLICES,
      ...GPU_WORKLOAD,
      '--report',
      report,
      '-o',
      'json',
    ]);

    // Assess
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout) as { launches: number; pods: { running: number } };
    expect(result).toMatchObject({ launches: 1, pods: { running: 4 } });
  });
});
