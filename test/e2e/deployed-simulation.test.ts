/**
 * `nodesmith simulate --deployed` as an operator runs it: the stack synthesized by `cdk synth`,
 * each function's bundle in its own process with its template environment, every AWS call over
 * HTTP to the simulated account with IAM evaluating the synthesized roles, DynamoDB Local under
 * the template's table names, and the functions woken only by the template's queues, rules and
 * the HTTP API's wake route kube-apiserver calls. The burst ends with every pod running, every invariant held and
 * nothing denied by IAM or RBAC, within the call budgets of docs/design.md §7
 * (deployed-denial.test.ts shows a permission taken away, deployed-rbac-denial.test.ts a rule).
 */
import { describe, expect, it } from 'vitest';
import { INSTANCE_TYPE_INFOS } from '../../simulator/aws/ec2/ec2-catalog.ts';
import { ec2Products } from '../../simulator/aws/pricing/simulated-price-list.ts';
import type { SimulationSummary } from '../../simulator/run/simulation-report.ts';
import { runCli } from '../support/cli.ts';
import { simulate } from '../support/simulate-in-process.ts';

/** The stack is synthesized once per run of the suite (kept by a hash of its inputs). */
const DEPLOYED_RUN_MS = 240_000;

/** The pages of the simulated region's on-demand price list for one operating system. */
function pagesOf(operatingSystem: 'Linux' | 'Windows'): number {
  const products = ec2Products('us-east-1');
  const listed = products.filter((p) => p.product.attributes.operatingSystem === operatingSystem);
  return Math.ceil(listed.length / 100);
}

function summaryOf(stdout: string): SimulationSummary {
  return JSON.parse(stdout) as SimulationSummary;
}

describe('nodesmith simulate --deployed', () => {
  it(
    'turns a burst into running nodes with every invariant held and nothing denied, within the call budgets',
    async () => {
      // Act
      const result = await simulate('--deployed', '--pods', '30', '-o', 'json');
      // Assess
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      const summary = summaryOf(result.stdout);
      expect(summary.pods).toEqual({ total: 30, running: 30, pending: 0 });
      expect(summary.invariants.filter((i) => !i.held)).toEqual([]);
      expect(summary.invariants.map((i) => i.name)).toContain('no call refused');
      expect(summary.aws?.denied).toEqual([]);
      // Every Kubernetes request was let in by deploy/rbac.yaml for its function's group.
      expect(summary.kubernetes?.denied).toEqual([]);
      // The wakes counted are those the functions and rules sent to the account's work queue:
      // kube-apiserver called the relay through the HTTP API's wake route, and the audit log,
      // not subscribed on this path, woke nothing.
      expect(summary.wakes.admission).toBeGreaterThan(0);
      expect(summary.wakes.audit).toBe(0);
      expect(summary.wakes.tick).toBeGreaterThan(0);
      const calls = summary.aws?.calls ?? {};
      // One controller container, warm for the run: the cluster is described at its cold start.
      expect(calls['eks:DescribeCluster']).toBe(1);
      expect(calls['ec2:CreateFleet']).toBe(summary.launches);
      // Prices and instance types are refreshed on their own intervals, not read every pass:
      // the run lists Linux prices once, a page per 100 products (no pool asks for Windows),
      // and the instance types once, a page per 100 types.
      expect(calls['pricing:GetProducts']).toBe(pagesOf('Linux'));
      expect(calls['ec2:DescribeInstanceTypes']).toBe(Math.ceil(INSTANCE_TYPE_INFOS.length / 100));
      // Each distinct launch template is looked up once and made once by the warm controller,
      // however many fleets launch with it; and no call is asked twice for a clock skew.
      const templates = calls['ec2:CreateLaunchTemplate'] ?? 0;
      expect(templates).toBeGreaterThan(0);
      expect(calls['ec2:DescribeLaunchTemplates']).toBe(templates);
      // One instance profile, provisioned once for the launches that resolved its class at once.
      expect(calls['iam:GetInstanceProfile']).toBe(1);
      // The calls of each function add up to the calls of all, and launches are the controller's.
      const byFunction = Object.values(summary.aws?.byFunction ?? {});
      const launching = byFunction.filter((counts) => counts['ec2:CreateFleet'] !== undefined);
      expect(launching.map((counts) => counts['ec2:CreateFleet'])).toEqual([summary.launches]);
      const summed: Record<string, number> = {};
      for (const [action, n] of byFunction.flatMap((counts) => Object.entries(counts))) {
        summed[action] = (summed[action] ?? 0) + n;
      }
      expect(summed).toEqual(calls);
    },
    DEPLOYED_RUN_MS,
  );

  it(
    'leaves the Kubernetes client to the functions’ processes: the command’s own never loads it',
    async () => {
      // Prepare: a hook in the command's process that makes any import of the client fail
      const hook =
        'export async function resolve(specifier, context, next) {' +
        " if (specifier.startsWith('@kubernetes/client-node')) throw new Error('loaded ' + specifier);" +
        ' return next(specifier, context); }';
      const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
      const nodeArgs = ['--import', `data:text/javascript,${encodeURIComponent(register)}`];
      // Act
      const deployed = await runCli(['simulate', '--deployed', '--pods', '1', '-o', 'json'], {
        nodeArgs,
      });
      const inProcess = await runCli(['simulate', '--pods', '1', '-o', 'json'], { nodeArgs });
      // Assess: the functions' processes used the client (the pod runs); the hook works
      expect(deployed.stderr).toBe('');
      expect(summaryOf(deployed.stdout).pods).toEqual({ total: 1, running: 1, pending: 0 });
      expect(inProcess.stderr).toContain('loaded @kubernetes/client-node');
    },
    DEPLOYED_RUN_MS,
  );

  it('refuses --deny without --deployed, changing nothing', async () => {
    // Act
    const result = await simulate('--deny', 'ec2:CreateFleet', '-o', 'json');
    // Assess
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--deny takes effect only with --deployed');
    expect(result.stdout).toBe('');
  });

  it('refuses a Kubernetes permission to deny that names no resource, before deploying', async () => {
    // Act
    const result = await simulate('--deployed', '--deny', 'k8s:patch', '-o', 'json');
    // Assess
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('write a Kubernetes permission as k8s:<verb>:<resource>');
    expect(result.stdout).toBe('');
  });
});
