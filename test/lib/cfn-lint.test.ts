/**
 * cfn-lint, as a reviewer runs it, over every shape the stack takes: the defaults, no monitoring,
 * EKS with its audit log subscription, starting limits, reserved concurrency and adoption of Karpenter's
 * nodes, EKS in a VPC with the cluster's security group, and a self-managed cluster in a VPC. One synthesis per shape
 * (without bundling: cfn-lint reads the template, not the code), one cfn-lint run over all.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildStack, EKS_CONTEXT, NODE_ROLE, SELF_MANAGED_CONTEXT } from './stack-fixture.ts';

const VARIANTS: Readonly<Record<string, Record<string, unknown>>> = {
  defaults: { clusterName: 'shop', nodeRoleArn: NODE_ROLE },
  'no metrics, alarms or dashboard': {
    clusterName: 'shop',
    nodeRoleArn: NODE_ROLE,
    metrics: false,
    alarms: false,
  },
  'audit log, limits, reserved concurrency and adoption': {
    ...EKS_CONTEXT,
    limits: { nodes: 400, 'nodesmith.io/hourly-cost': '900' },
    controllerReservedConcurrency: 2,
    adoptKarpenterNodes: true,
  },
  'EKS in a VPC': {
    clusterName: 'shop',
    nodeRoleArn: NODE_ROLE,
    vpcId: 'vpc-0a1b2c3d',
    subnetIds: 'subnet-0a1b2c3d,subnet-1a2b3c4d',
    clusterSecurityGroupId: 'sg-0f1e2d3c',
  },
  'self-managed in a VPC': SELF_MANAGED_CONTEXT,
};

function templateOf(context: Record<string, unknown>): string {
  const { app, stack, outdir } = buildStack(context);
  app.synth();
  return join(outdir, `${stack.stackName}.template.json`);
}

describe('cfn-lint', () => {
  it('reports no error, and no warning but CDK’s own ordering, on any shape of the stack', () => {
    const templates = Object.values(VARIANTS).map(templateOf);
    // W3005: CDK makes each function depend on its role's policy as well as on the role, which
    // cfn-lint finds redundant; it is CDK's ordering, not a finding about the stack.
    const args = ['--format', 'parseable', '--ignore-checks', 'W3005', '--', ...templates];
    const result = spawnSync('cfn-lint', args, {
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(result.error, 'cfn-lint must be installed (pip install cfn-lint)').toBeUndefined();
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 300_000);
});
