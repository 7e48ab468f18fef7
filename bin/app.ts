/**
 * The CDK app: one Nodesmith stack for the cluster named in context, in the account and region
 * of the deploying credentials.
 *
 *   npx cdk deploy -c clusterName=shop-prod -c nodeRoleArn=arn:aws:iam::111122223333:role/KarpenterNodeRole-shop-prod
 */
import { App } from 'aws-cdk-lib';
import { loadConfig } from '../lib/config.ts';
import { NodesmithStack } from '../lib/nodesmith-stack.ts';

const app = new App();
const config = loadConfig(app.node.getAllContext());
new NodesmithStack(app, `Nodesmith-${config.clusterName}`, {
  config,
  description: `Nodesmith node autoscaler for Kubernetes cluster ${config.clusterName}`,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
