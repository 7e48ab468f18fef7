/**
 * The AWS managed policies the stack attaches, vendored: a simulated account has no IAM of
 * AWS's own to read them from. AWSLambdaVPCAccessExecutionRole is version v3 (default), edited
 * January 5, 2024, as the AWS Managed Policy Reference Guide prints it; CDK attaches it to the
 * functions it puts in a VPC (the self-managed cluster's, lib/nodesmith-function.ts).
 */
import type { PolicyDocument } from './policy-document.ts';

const AWS_LAMBDA_VPC_ACCESS_EXECUTION_ROLE: PolicyDocument = {
  Version: '2012-10-17',
  Statement: [
    {
      Sid: 'AWSLambdaVPCAccessExecutionPermissions',
      Effect: 'Allow',
      Action: [
        'logs:CreateLogGroup',
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        'ec2:CreateNetworkInterface',
        'ec2:DescribeNetworkInterfaces',
        'ec2:DescribeSubnets',
        'ec2:DeleteNetworkInterface',
        'ec2:AssignPrivateIpAddresses',
        'ec2:UnassignPrivateIpAddresses',
      ],
      Resource: '*',
    },
  ],
};

/** By the path after `policy/` in the ARN, the same in every partition. */
const MANAGED: Readonly<Record<string, PolicyDocument>> = {
  'service-role/AWSLambdaVPCAccessExecutionRole': AWS_LAMBDA_VPC_ACCESS_EXECUTION_ROLE,
};

/** The document of an AWS managed policy; throws for one not vendored, rather than grant nothing. */
export function managedPolicy(arn: string): PolicyDocument {
  const match = /^arn:[^:]+:iam::aws:policy\/(.+)$/.exec(arn);
  const document = match === null ? undefined : MANAGED[match[1] as string];
  if (document === undefined) throw new Error(`no vendored document for managed policy ${arn}`);
  return document;
}
