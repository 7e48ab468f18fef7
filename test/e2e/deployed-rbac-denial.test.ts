/**
 * A cluster whose RBAC lacks a rule the functions need, as deployed: deploy/rbac.yaml applied
 * without the ClusterRole's `list runtimeclasses` (as on a cluster whose roles predate it,
 * docs/cluster-access.md). The API server refuses the controller's list with the 403 kube-apiserver
 * sends, every pass fails before planning, the pods stay pending, and the run names the denial
 * beside the IAM ones. A file of its own, so it runs beside the other deployed runs.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deployedRun } from '../../simulator/deployed/deployed-run.ts';
import { limitsScenario } from '../../simulator/scenarios/limits-scenario.ts';

const DEPLOYED_RUN_MS = 240_000;

const RUNTIME_CLASSES_RULE = `  - apiGroups: [node.k8s.io]
    resources: [runtimeclasses]
    verbs: [list]
`;

/** deploy/rbac.yaml as applied, less the controller's rule for RuntimeClasses. */
function rbacWithoutRuntimeClasses(): string {
  const rbac = readFileSync(new URL('../../deploy/rbac.yaml', import.meta.url), 'utf8');
  const controllerRole = rbac.slice(0, rbac.indexOf('---'));
  const rule = controllerRole.lastIndexOf(RUNTIME_CLASSES_RULE);
  if (rule < 0) throw new Error('deploy/rbac.yaml no longer grants the controller runtimeclasses');
  const file = join(mkdtempSync(join(tmpdir(), 'rbac-')), 'rbac.yaml');
  writeFileSync(file, rbac.slice(0, rule) + rbac.slice(rule + RUNTIME_CLASSES_RULE.length));
  return file;
}

describe('nodesmith simulate --deployed against RBAC missing a rule', () => {
  it(
    "names the controller's refused request and leaves the pods pending",
    async () => {
      // Prepare
      const rbacFiles = [rbacWithoutRuntimeClasses()];
      // Act
      const report = await deployedRun(limitsScenario(1, 10), { seed: 1, deny: [], rbacFiles });
      // Assess
      const { summary } = report;
      expect(summary.pods.running).toBe(0);
      expect(summary.nodes.launched).toBe(0);
      expect(summary.invariants.some((i) => !i.held)).toBe(true);
      expect(summary.aws?.denied).toEqual([]);
      const denied = summary.kubernetes?.denied ?? [];
      expect(denied.length).toBeGreaterThan(0);
      const kinds = new Set(
        denied.map((d) => `${d.function?.replace(/[0-9A-F]{8}$/, '')} ${d.verb} ${d.resource}`),
      );
      expect(kinds).toEqual(new Set(['Controller list runtimeclasses.node.k8s.io']));
      expect(denied[0]?.message).toMatch(
        /^runtimeclasses\.node\.k8s\.io is forbidden: User "arn:aws:sts::111122223333:assumed-role\/[^/]+\/Controller[0-9A-F]{8}" cannot list resource "runtimeclasses" in API group "node\.k8s\.io" at the cluster scope$/,
      );
    },
    DEPLOYED_RUN_MS,
  );
});
