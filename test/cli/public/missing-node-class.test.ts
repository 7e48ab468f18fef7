import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../support/cli-in-process.ts';
import { reportPath } from '../../support/simulate-in-process.ts';

const BLUEPRINT = '../../fixtures/public/karpenter-blueprints/blueprints/od-spot-split';
const POOLS = fileURLToPath(new URL(`${BLUEPRINT}/od-spot.yaml`, import.meta.url));
const WORKLOAD = fileURLToPath(new URL(`${BLUEPRINT}/workload.yaml`, import.meta.url));
const BOTTLEROCKET = fileURLToPath(
  new URL(
    '../../fixtures/public/karpenter-provider-aws/examples/v1/bottlerocket.yaml',
    import.meta.url,
  ),
);
const FILES = ['-f', BOTTLEROCKET, '-f', POOLS, '-f', WORKLOAD];

const WARNINGS = ['node-od', 'node-spot'].map(
  (pool) =>
    `warning: NodePool "${pool}" launches nothing: its EC2NodeClass "default" is not in the input (Karpenter reports NodeClassNotFound)`,
);

describe('NodePools whose EC2NodeClass is not in the input', () => {
  it.each([
    ['plan', ['plan', '-o', 'json']],
    ['disruption', ['disruption', '-o', 'json']],
  ])('%s names each pool and its missing class on standard error', async (_command, args) => {
    // Act
    const run = await runCliInProcess([...args, ...FILES]);

    // Assess
    expect(run.status).toBe(0);
    expect(run.stderr.trimEnd().split('\n')).toEqual(WARNINGS);
  });

  it('plans pools-only input with the class defaults, as before', async () => {
    // Act
    const run = await runCliInProcess(['plan', '-o', 'json', '-f', POOLS, '-f', WORKLOAD]);

    // Assess
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
  });

  it('simulate -f launches for pools-only input with the class defaults, as before', async () => {
    // Act
    const args = ['simulate', '-f', POOLS, '-f', WORKLOAD, '--report', reportPath()];
    const run = await runCliInProcess(args);

    // Assess
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/files: (\d+)\/\1 pods running/);
    expect(run.stdout).toMatch(/^ {2}launches [1-9]/m);
  });

  it('simulate -f launches nothing for them and says why', async () => {
    // Act
    const args = ['simulate', ...FILES, '--report', reportPath()];
    const run = await runCliInProcess(args);

    // Assess
    expect(run.status).toBe(0);
    expect(run.stderr.trimEnd().split('\n')).toEqual(WARNINGS);
    expect(run.stdout).toContain('launches 0,');
  });
});
