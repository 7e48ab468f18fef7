/**
 * `npx cdk synth` as an operator runs it, offline: the real CLI, the app from cdk.json, real
 * esbuild bundles. Notices, telemetry and the version check are off (cdk.json and the
 * environment), so nothing leaves the machine.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OFFLINE_SYNTH_ENVIRONMENT } from '../../simulator/synthesis/synthesized-stack.ts';
import { NODE_ROLE, SELF_MANAGED_CONTEXT } from './stack-fixture.ts';

// No credentials and nowhere to find them: synth must need none (no context lookups).
const OFFLINE = { ...process.env, ...OFFLINE_SYNTH_ENVIRONMENT };

function synth(context: Record<string, string>) {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-out-'));
  const flags = Object.entries(context).flatMap(([key, value]) => ['-c', `${key}=${value}`]);
  const result = spawnSync(
    'node_modules/.bin/cdk',
    ['synth', '--quiet', '--no-notices', '-o', outdir, ...flags],
    { env: OFFLINE, encoding: 'utf8', timeout: 120_000 },
  );
  return { ...result, outdir };
}

describe('cdk synth', () => {
  it('synthesizes the stack offline, with a bundle for every function', () => {
    const result = synth({ clusterName: 'shop', nodeRoleArn: NODE_ROLE });
    expect(result.status, result.stderr).toBe(0);
    const template = JSON.parse(
      readFileSync(join(result.outdir, 'Nodesmith-shop.template.json'), 'utf8'),
    );
    const functions = Object.values(template.Resources as Record<string, any>).filter(
      (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Runtime === 'nodejs22.x',
    );
    expect(functions).toHaveLength(4);
    const bundles = readdirSync(result.outdir).filter((d) => d.startsWith('asset.'));
    const withCode = bundles.filter((d) => existsSync(join(result.outdir, d, 'index.mjs')));
    expect(withCode).toHaveLength(4);
    for (const bundle of withCode) {
      const code = readFileSync(join(result.outdir, bundle, 'index.mjs'), 'utf8');
      expect(code.startsWith('import { createRequire }'), bundle).toBe(true);
    }
  }, 120_000);

  it('synthesizes a self-managed cluster in a VPC without looking anything up', () => {
    const result = synth(SELF_MANAGED_CONTEXT);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/WARNING|ERROR/);
    const template = JSON.parse(
      readFileSync(join(result.outdir, 'Nodesmith-lab.template.json'), 'utf8'),
    );
    const inVpc = Object.values(template.Resources as Record<string, any>).filter(
      (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.VpcConfig !== undefined,
    );
    expect(inVpc.map((r) => r.Properties.VpcConfig.SubnetIds)).toEqual([
      ['subnet-0a1b2c3d', 'subnet-1a2b3c4d'],
      ['subnet-0a1b2c3d', 'subnet-1a2b3c4d'],
      ['subnet-0a1b2c3d', 'subnet-1a2b3c4d'],
    ]);
  }, 120_000);

  it('stops on a bad configuration, naming the key, and writes no template', () => {
    const result = synth({ clusterName: 'shop', nodeRoleArn: 'KarpenterNodeRole' });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      'nodeRoleArn: must be an ARN of the form arn:aws:iam:…:role/…, got "KarpenterNodeRole"',
    );
    expect(existsSync(join(result.outdir, 'Nodesmith-shop.template.json'))).toBe(false);
  }, 120_000);
});
