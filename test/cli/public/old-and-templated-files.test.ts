/**
 * Files written for Karpenter v1beta1 and unrendered Helm chart templates, as found in AWS's
 * samples: `plan` refuses them with one located line that says what to do.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../support/cli-in-process.ts';

function fixture(path: string): string {
  return fileURLToPath(new URL(`../../fixtures/public/${path}`, import.meta.url));
}

const WORKSHOP = fixture('karpenter-workshop-additional/05-ControlPodDensity/static.yaml');
const CHART_TEMPLATE = fixture(
  'data-on-eks/data-stacks/valkey-on-eks/examples/cluster-mode-helm-chart/templates/statefulset.yaml',
);
const KUBELET_MOVED = "the kubelet settings moved to the EC2NodeClass's spec.kubelet";

describe('old and templated public files', () => {
  it('says where a v1beta1 NodePool kubelet and expireAfter went', async () => {
    // Act
    const run = await runCliInProcess(['plan', '-f', WORKSHOP]);

    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`${WORKSHOP}:4: apiVersion: NodePool karpenter.sh/v1beta1`);
    expect(run.stderr).toContain(`spec.template.spec.kubelet: in karpenter.sh/v1 ${KUBELET_MOVED}`);
    expect(run.stderr).toContain('expireAfter moved to spec.template.spec.expireAfter');
  });

  it('points at spec.template.spec.kubelet of a NodePool relabelled v1 without moving it', async () => {
    // Prepare: the same file with only its apiVersions changed, as a hurried upgrade leaves it
    const text = readFileSync(WORKSHOP, 'utf8').replaceAll('/v1beta1', '/v1');
    const file = join(mkdtempSync(join(tmpdir(), 'nodesmith-v1beta1-')), 'static.yaml');
    writeFileSync(file, text);

    // Act
    const run = await runCliInProcess(['plan', '-f', file]);

    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `nodesmith: ${file}:18: spec.template.spec.kubelet: unknown field "kubelet": in karpenter.sh/v1 ${KUBELET_MOVED}\n`,
    );
  });

  it('asks for a chart template to be rendered, at its first template action', async () => {
    // Act
    const run = await runCliInProcess(['plan', '-f', CHART_TEMPLATE]);

    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `nodesmith: ${CHART_TEMPLATE}:7: unrendered Helm template: {{ include "valkey-cluster.fullname" . }} is not YAML yet; render the chart first (helm template RELEASE CHART > rendered.yaml) and read the output\n`,
    );
  });
});
