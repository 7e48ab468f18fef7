/**
 * `nodesmith simulate --deployed --self-managed --wake audit`: the stack synthesized for a
 * self-managed cluster — its endpoint, version, service range, the complete ARN of the kubeconfig
 * secret and the audit webhook — with no EKS anywhere. The functions read the secret the operator
 * created and reach the API server with its token, which the server's token file puts in the
 * group deploy/rbac.yaml binds; kube-apiserver's audit webhook posts its batches through the
 * template's HTTP API to `POST /v1/audit` with the bearer token of the stack's AuditToken secret,
 * and the relay's bundle behind the route wakes the controller.
 */
import { describe, expect, it } from 'vitest';
import type { SimulationSummary } from '../../simulator/run/simulation-report.ts';
import { cleanDeployedRun, simulate } from '../support/simulate-in-process.ts';

const DEPLOYED_RUN_MS = 600_000;

/** The calls of the function whose logical id starts with `name` (the template adds a hash). */
function callsOf(summary: SimulationSummary, name: string): Readonly<Record<string, number>> {
  const byFunction = Object.entries(summary.aws?.byFunction ?? {});
  return byFunction.find(([id]) => id.slice(0, -8) === name)?.[1] ?? {};
}

describe('nodesmith simulate --deployed --self-managed', () => {
  it(
    'turns a burst into running nodes through the kubeconfig secret and the audit webhook, nothing refused',
    async () => {
      // Act
      const summary = await cleanDeployedRun(
        'burst',
        '--self-managed',
        '--pods',
        '24',
        '--wake',
        'audit',
      );
      // Assess: every pod runs, every invariant held, nothing refused (cleanDeployedRun), and
      // the relay refused no batch, which would have failed `no call refused`.
      expect(summary.pods).toEqual({ total: 24, running: 24, pending: 0 });
      expect(summary.invariants.map((i) => i.name)).toContain('no call refused');
      // No cluster is described: the functions that reach it read the kubeconfig secret.
      expect(summary.aws?.calls['eks:DescribeCluster']).toBeUndefined();
      const controller = callsOf(summary, 'Controller');
      expect(controller['secretsmanager:GetSecretValue']).toBeGreaterThan(0);
      expect(controller['ec2:CreateFleet']).toBe(summary.launches);
      // The audit wakes came through the route: its function, reached by nothing else, read its
      // bearer token once and sent each of them, which it does only for the token it reads.
      expect(summary.wakes.audit).toBeGreaterThan(0);
      expect(summary.wakes.admission).toBe(0);
      const relay = callsOf(summary, 'AuditWebhook');
      expect(relay['secretsmanager:GetSecretValue']).toBe(1);
      expect(relay['sqs:SendMessage']).toBe(summary.wakes.audit);
    },
    DEPLOYED_RUN_MS,
  );

  it('refuses --self-managed without --deployed, changing nothing', async () => {
    // Act
    const result = await simulate('--self-managed', '-o', 'json');
    // Assess
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--self-managed takes effect only with --deployed');
    expect(result.stdout).toBe('');
  });
});
