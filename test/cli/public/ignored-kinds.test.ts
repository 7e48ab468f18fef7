/**
 * A karpenter-blueprints NodePool beside kinds Nodesmith reads and ignores: `plan`, `disruption`
 * and `simulate -f` name those that could change the answer on standard error, once.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.ts';

function fixture(name: string): string {
  const path = `../../fixtures/public/karpenter-blueprints/blueprints/node-overlay/${name}`;
  return fileURLToPath(new URL(path, import.meta.url));
}

const POOL = fixture('nodepool-targeted.yaml');
/** A LimitRange giving containers default requests, as a namespace's admission would. */
function limitRangeFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'nodesmith-ignored-')), 'limits.yaml');
  const defaults =
    'spec:\n  limits:\n    - type: Container\n      defaultRequest:\n        cpu: 250m\n';
  writeFileSync(file, `apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: defaults\n${defaults}`);
  return file;
}
const LIMIT_RANGE_WARNING =
  'warning: ignored, though they could change the answer: LimitRange (would give pods without requests default requests)\n';

describe('kinds read and ignored', () => {
  it.each([['plan'], ['disruption']])(
    '%s names LimitRange once on standard error',
    async (command) => {
      // Act
      const run = await runCli([command, '-f', POOL, '-f', limitRangeFile(), '-o', 'json']);

      // Assess
      expect(run.status).toBe(0);
      expect(run.stderr).toBe(LIMIT_RANGE_WARNING);
    },
  );

  it('simulate -f names LimitRange once on standard error', async () => {
    // Prepare
    const report = join(mkdtempSync(join(tmpdir(), 'nodesmith-ignored-')), 'report.html');

    // Act
    const run = await runCli(['simulate', '-f', POOL, '-f', limitRangeFile(), '--report', report]);

    // Assess
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(LIMIT_RANGE_WARNING);
  });

  it('says nothing of kinds that cannot change the answer', async () => {
    // Prepare: a Service and a ConfigMap beside the pool
    const file = join(mkdtempSync(join(tmpdir(), 'nodesmith-ignored-')), 'extra.yaml');
    const service = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports: []\n';
    writeFileSync(file, `${service}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n`);

    // Act
    const run = await runCli(['plan', '-f', POOL, '-f', file, '-o', 'json']);

    // Assess
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
  });

  it('names several ignored kinds in one sorted line', async () => {
    // Prepare
    const file = join(mkdtempSync(join(tmpdir(), 'nodesmith-ignored-')), 'policy.yaml');
    const quota = 'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: q\n';
    const hpa = 'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: h\n';
    writeFileSync(file, `${quota}---\n${hpa}`);

    // Act
    const run = await runCli(['plan', '-f', POOL, '-f', file, '-o', 'json']);

    // Assess
    expect(run.stderr).toBe(
      'warning: ignored, though they could change the answer: HorizontalPodAutoscaler (would change the number of pods), ResourceQuota (could keep pods from being created)\n',
    );
  });
});
