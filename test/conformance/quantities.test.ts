/**
 * Quantities over the API server's whole range: limits people write for "no real limit" plan
 * normally, sums past 2^53 stay exact, and a quantity no API server accepts is named with its
 * file, line and field (Kubernetes: apimachinery resource.Quantity).
 */
import { describe, expect, it } from 'vitest';
import { fixture, planOf, runCli } from './plan-cli.ts';

describe.concurrent('quantities', () => {
  it('plans normally under limits of 8Ei, 100000000Gi and counts past int64', async () => {
    // Prepare: cpu 1000000, memory 8Ei, ephemeral-storage 100000000Gi, GPUs 2^63
    const plan = await planOf('quantities-huge-limits');

    // Assess
    expect(plan.nodeClaims.map((c) => c.pods)).toEqual([['default/web-1'], ['default/web-2']]);
    expect(plan.unschedulable).toEqual([]);
  });

  it('counts a node past 2^53 bytes against a limit exactly: the last type that fits', async () => {
    // Prepare: limit 2^53 + 7945060352 bytes, the pool's node has 8Pi (2^53), m5.large has 7945060352
    const plan = await planOf('quantities-limit-exact-fits');

    // Assess
    expect(plan.nodeClaims.map((c) => [c.instanceType, c.pods])).toEqual([
      ['m5.large', ['default/web-1']],
    ]);
  });

  it('counts a node past 2^53 bytes against a limit exactly: one byte short', async () => {
    // Prepare: the same limit less one byte
    const plan = await planOf('quantities-limit-exact-one-byte-short');

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable).toEqual([
      {
        pod: 'default/web-1',
        reason: expect.stringMatching(
          /would exceed its memory limit: 8388608Gi of 8388615\.4Gi used/,
        ),
      },
    ]);
  });

  it.each([
    [
      'invalid/limit-exponent-out-of-range',
      ':9: spec.limits.memory: quantity "1e99999999999" is out of range',
    ],
    [
      'invalid/request-exponent-out-of-range',
      ':14: spec.containers[0].resources.requests.memory: quantity "1e2147483648" is out of range',
    ],
  ])('exits 2 naming file, line and field for %s', async (name, where) => {
    // Prepare
    const file = fixture(name);

    // Act
    const run = await runCli(['plan', '-f', file, '-o', 'json']);

    // Assess
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${file}${where}`);
  });
});
