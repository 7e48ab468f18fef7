/**
 * `nodesmith simulate -f`, run in the test's process, on a public manifest: the controller's loop
 * launches the nodes `plan` shows for the same pods when nothing changes between its passes.
 * Fresh nodes and NodeClaims in flight are offered pods as the pass that launched them offered its
 * new claims (docs/scheduling.md), so a later pass, and kube-scheduler, find the pods the room
 * planned for.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PlanReport } from '../../functions/use-cases/plan/plan-report.ts';
import { runCliInProcess } from '../support/cli-in-process.ts';
import { writePendingPods, writeScaledWorkloads } from '../support/workload-pods.ts';

const PUBLIC = fileURLToPath(new URL('../fixtures/public/', import.meta.url));
const GENERAL_PURPOSE = `${PUBLIC}karpenter-provider-aws/examples/v1/general-purpose.yaml`;
const OTEL_DEMO = `${PUBLIC}opentelemetry-demo/kubernetes/opentelemetry-demo.yaml`;
const COPIES = 10;

describe('nodesmith simulate -f launches what plan shows', () => {
  it('launches the OpenTelemetry demo, ten copies, on the nodes plan shows', async () => {
    // Prepare: 250 pods; plan packs one copy per m5a.large. Re-packed first fit onto the
    // launched nodes, 58 of them were left over and a pass launched an eleventh node.
    const workloads = writeScaledWorkloads([GENERAL_PURPOSE, OTEL_DEMO], COPIES);
    const pods = writePendingPods([GENERAL_PURPOSE, OTEL_DEMO], { copies: COPIES });
    const planned = await runCliInProcess(['plan', '-f', pods, '-o', 'json']);
    const report = join(dirname(workloads), 'report.html');

    // Act
    const simulated = await runCliInProcess(['simulate', '-f', workloads, '--report', report]);

    // Assess
    expect(planned.status, planned.stderr).toBe(0);
    expect(simulated.status, simulated.stderr).toBe(0);
    const launched = [...simulated.stdout.matchAll(/launched \S+ \(([^,]+),/g)].map((m) => m[1]);
    const plannedTypes = (JSON.parse(planned.stdout) as PlanReport).nodeClaims.map(
      (c) => c.instanceType,
    );
    expect(launched).toHaveLength(COPIES);
    expect(launched.sort()).toEqual(plannedTypes.sort());
    expect(simulated.stdout).toContain(`${COPIES * 25}/${COPIES * 25} pods running`);
  }, 120_000);
});
