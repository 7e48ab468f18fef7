/** Builds a Nodesmith stack the way bin/app.ts does, from context values, for template tests. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { loadConfig } from '../../lib/config.ts';
import { NodesmithStack } from '../../lib/nodesmith-stack.ts';

export const NODE_ROLE = 'arn:aws:iam::111122223333:role/KarpenterNodeRole-shop';

export const EKS_CONTEXT = {
  clusterName: 'shop',
  nodeRoleArn: NODE_ROLE,
  auditLogGroupName: '/aws/eks/shop/cluster',
};

export const SELF_MANAGED_CONTEXT = {
  clusterName: 'lab',
  nodeRoleArn: NODE_ROLE,
  clusterEndpoint: 'https://k8s.lab.example.com:6443',
  clusterCertificateAuthority: Buffer.from('-----BEGIN CERTIFICATE-----').toString('base64'),
  clusterSecretArn: 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:lab-kubeconfig-AbC123',
  kubernetesVersion: '1.33',
  vpcId: 'vpc-0a1b2c3d',
  subnetIds: 'subnet-0a1b2c3d,subnet-1a2b3c4d',
  clusterSecurityGroupId: 'sg-0f1e2d3c',
  limits: '{"nodes": 400, "nodesmith.io/hourly-cost": "900"}',
};

export interface BuiltStack {
  readonly app: App;
  readonly stack: NodesmithStack;
  /** Synthesizes the app on first use: add validation plugins before reading it. */
  readonly template: Template;
  readonly outdir: string;
}

/** `bundle: false` skips esbuild, as `cdk synth --exclusively` of another stack would. */
export function buildStack(
  context: Record<string, unknown>,
  options: { bundle?: boolean; region?: string } = {},
): BuiltStack {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-'));
  const app = new App({
    outdir,
    context: options.bundle === true ? {} : { 'aws:cdk:bundling-stacks': [] },
  });
  const config = loadConfig(context);
  const stack = new NodesmithStack(app, `Nodesmith-${config.clusterName}`, {
    config,
    env: { account: '111122223333', region: options.region ?? 'us-east-1' },
  });
  let template: Template | undefined;
  return {
    app,
    stack,
    outdir,
    get template() {
      template ??= Template.fromStack(stack);
      return template;
    },
  };
}
