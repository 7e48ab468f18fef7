import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../lib/config.ts';
import { EKS_CONTEXT, NODE_ROLE, SELF_MANAGED_CONTEXT } from './stack-fixture.ts';

function problems(context: Record<string, unknown>): string {
  try {
    loadConfig(context);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('loadConfig accepted the context');
}

describe('the deployment configuration', () => {
  it('reads an EKS cluster from context, with defaults, and ignores CDK’s own keys', () => {
    const config = loadConfig({
      clusterName: 'shop',
      nodeRoleArn: NODE_ROLE,
      'cli-telemetry': false,
      '@aws-cdk/core:newStyleStackSynthesis': true,
    });
    expect(config).toEqual({
      clusterName: 'shop',
      nodeRoleArn: NODE_ROLE,
      cluster: { kind: 'eks' },
      tickMinutes: 1,
      logRetentionDays: 30,
      adoptKarpenterNodes: false,
      auditWebhook: false,
      monitoring: { metrics: true, alarms: true, dashboard: true },
    });
  });

  it('keeps the audit webhook for a self-managed cluster unless told, and refuses it on EKS', () => {
    // Assess
    expect(loadConfig(SELF_MANAGED_CONTEXT).auditWebhook).toBe(true);
    expect(loadConfig({ ...SELF_MANAGED_CONTEXT, auditWebhook: 'false' }).auditWebhook).toBe(false);
    expect(problems({ ...EKS_CONTEXT, auditWebhook: true })).toContain(
      'auditWebhook: is for self-managed clusters: EKS cannot send an audit webhook; apply deploy/wake-webhook.yaml, or set auditLogGroupName to read the audit log, got true',
    );
  });

  it('makes each monitoring line a choice, the dashboard following the metrics it shows', () => {
    // Act
    const choose = (context: Record<string, unknown>) =>
      loadConfig({ ...EKS_CONTEXT, ...context }).monitoring;

    // Assess
    expect(choose({ alarms: 'false' })).toEqual({ metrics: true, alarms: false, dashboard: true });
    expect(choose({ dashboard: false })).toEqual({ metrics: true, alarms: true, dashboard: false });
    expect(choose({ metrics: false })).toEqual({ metrics: false, alarms: true, dashboard: false });
    expect(problems({ ...EKS_CONTEXT, metrics: false, dashboard: true })).toContain(
      'dashboard: shows the controller’s metrics: set metrics=true as well, or leave dashboard out, got true',
    );
  });

  it('reads adoptKarpenterNodes as a boolean, or as its text from -c, and fails anything else', () => {
    expect(loadConfig({ ...EKS_CONTEXT, adoptKarpenterNodes: true }).adoptKarpenterNodes).toBe(
      true,
    );
    expect(loadConfig({ ...EKS_CONTEXT, adoptKarpenterNodes: 'true' }).adoptKarpenterNodes).toBe(
      true,
    );
    expect(problems({ ...EKS_CONTEXT, adoptKarpenterNodes: 'yes' })).toContain(
      'adoptKarpenterNodes: must be true or false, got "yes"',
    );
  });

  it('reads a self-managed cluster with its subnets, numbers and lists given as text', () => {
    const config = loadConfig({
      ...SELF_MANAGED_CONTEXT,
      tickMinutes: '5',
      logRetentionDays: '90',
    });
    expect(config.cluster).toEqual({
      kind: 'self-managed',
      endpoint: SELF_MANAGED_CONTEXT.clusterEndpoint,
      certificateAuthority: SELF_MANAGED_CONTEXT.clusterCertificateAuthority,
      kubeconfigSecretArn: SELF_MANAGED_CONTEXT.clusterSecretArn,
      kubernetesVersion: '1.33',
    });
    expect(config.vpc).toEqual({
      vpcId: 'vpc-0a1b2c3d',
      subnetIds: ['subnet-0a1b2c3d', 'subnet-1a2b3c4d'],
      clusterSecurityGroupId: 'sg-0f1e2d3c',
    });
    expect([config.tickMinutes, config.logRetentionDays]).toEqual([5, 90]);
    expect(loadConfig(EKS_CONTEXT).auditLogGroupName).toBe('/aws/eks/shop/cluster');
  });

  it('fails naming every bad key with what was given and what is expected', () => {
    const message = problems({
      clusterName: 'shop prod',
      nodeRoleArn: 'KarpenterNodeRole',
      logRetentionDays: 10,
      tickMinutes: 0,
    });
    expect(message.split('\n')).toEqual([
      'invalid Nodesmith configuration:',
      '  clusterName: must be an EKS cluster name: letters, digits, - and _, starting with a letter or digit, at most 100 characters, got "shop prod"',
      '  nodeRoleArn: must be an ARN of the form arn:aws:iam:…:role/…, got "KarpenterNodeRole"',
      '  tickMinutes: Too small: expected number to be >=1, got 0',
      '  logRetentionDays: must be one of 1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653, got 10',
    ]);
  });

  it('reads the starting cluster limits as a map, or as its JSON text from -c', () => {
    const limits = { nodes: 400, 'nodesmith.io/hourly-cost': '900', memory: '2000Gi' };
    const expected = { nodes: '400', 'nodesmith.io/hourly-cost': '900', memory: '2000Gi' };
    expect(loadConfig({ ...EKS_CONTEXT, limits }).limits).toEqual(expected);
    expect(loadConfig({ ...EKS_CONTEXT, limits: JSON.stringify(limits) }).limits).toEqual(expected);
  });

  it('fails limits with an unknown key or a value that is not a quantity', () => {
    const message = problems({ ...EKS_CONTEXT, limits: { 'hourly-cost': '900', nodes: 'many' } });
    expect(message).toContain(
      'limits.hourly-cost: must be one of nodes, cpu, memory, nvidia.com/gpu, nodesmith.io/hourly-cost or an extended resource',
    );
    expect(message).toContain('limits.nodes: must be a quantity such as 400, 2000Gi or 0.5');
    expect(problems({ ...EKS_CONTEXT, limits: 'nodes=400' })).toContain(
      'limits: must be a map of limits',
    );
  });

  it('fails when a required key is missing', () => {
    expect(problems({ nodeRoleArn: NODE_ROLE })).toContain('clusterName: ');
    expect(problems({ nodeRoleArn: NODE_ROLE })).toContain('got nothing');
  });

  it('fails a self-managed cluster missing its connection settings, and EKS given them', () => {
    const {
      clusterSecretArn: _secret,
      kubernetesVersion: _version,
      ...partial
    } = SELF_MANAGED_CONTEXT;
    const message = problems(partial);
    expect(message).toContain(
      'clusterSecretArn: is required when clusterEndpoint names a self-managed cluster, got nothing',
    );
    expect(message).toContain('kubernetesVersion: is required');
    expect(problems({ ...EKS_CONTEXT, kubernetesVersion: '1.33' })).toContain(
      'kubernetesVersion: is only for a self-managed cluster: set clusterEndpoint as well, got "1.33"',
    );
  });

  it('reads the controller’s reserved concurrency, none by default, and refuses less than two', () => {
    expect(loadConfig(EKS_CONTEXT).controllerReservedConcurrency).toBeUndefined();
    expect(
      loadConfig({ ...EKS_CONTEXT, controllerReservedConcurrency: '4' })
        .controllerReservedConcurrency,
    ).toBe(4);
    expect(problems({ ...EKS_CONTEXT, controllerReservedConcurrency: 1 })).toContain(
      'controllerReservedConcurrency: Too small: expected number to be >=2, got 1',
    );
  });

  it('refuses an audit log group EKS does not write, and a cluster security group outside a VPC', () => {
    expect(problems({ ...EKS_CONTEXT, auditLogGroupName: '/aws/eks/shop-prod/cluster' })).toContain(
      'auditLogGroupName: must be /aws/eks/shop/cluster, where EKS writes the cluster’s audit log',
    );
    expect(problems({ ...EKS_CONTEXT, clusterSecurityGroupId: 'sg-0f1e2d3c' })).toContain(
      'clusterSecurityGroupId: is for functions in a VPC: set vpcId and subnetIds as well',
    );
  });

  it('leaves a self-managed cluster’s CA to the kubeconfig secret when it is not given, and refuses one too large for the environment', () => {
    const { clusterCertificateAuthority: _ca, ...withoutCa } = SELF_MANAGED_CONTEXT;
    expect(loadConfig(withoutCa).cluster).not.toHaveProperty('certificateAuthority');
    const bundle = Buffer.from('-----BEGIN CERTIFICATE-----\n'.repeat(120)).toString('base64');
    expect(problems({ ...SELF_MANAGED_CONTEXT, clusterCertificateAuthority: bundle })).toContain(
      "clusterCertificateAuthority: is too large for Lambda's 4 KB environment",
    );
  });

  it('fails a VPC without subnets, a secret ARN without its suffix and an http endpoint', () => {
    const message = problems({
      ...SELF_MANAGED_CONTEXT,
      subnetIds: undefined,
      clusterSecretArn: 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:lab-kubeconfig',
      clusterEndpoint: 'http://k8s.lab.example.com',
    });
    expect(message).toContain('subnetIds: vpcId and subnetIds go together');
    expect(message).toContain('clusterSecretArn: must be the complete ARN of a secret');
    expect(message).toContain('clusterEndpoint: must be an https:// URL');
  });
});
