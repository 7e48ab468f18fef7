/**
 * The roles' policies read from the synthesized template: every intrinsic function resolved
 * against the simulated account, inline policies and AWS managed ones attached to the role they
 * name, and each function mapped to its role.
 */
import { describe, expect, it } from 'vitest';
import { requestContextOf } from '../../../simulator/iam/condition-operators.ts';
import { PhysicalResources } from '../../../simulator/iam/physical-resources.ts';
import { evaluatePolicies } from '../../../simulator/iam/policy-evaluation.ts';
import { simulatedAccount } from '../../../simulator/iam/simulated-account.ts';
import { resolveIntrinsics } from '../../../simulator/iam/template-intrinsics.ts';
import {
  type CloudFormationTemplate,
  type TemplatePolicies,
  templatePolicies,
} from '../../../simulator/iam/template-policies.ts';
import { buildStack, EKS_CONTEXT, SELF_MANAGED_CONTEXT } from '../../lib/stack-fixture.ts';

const ACCOUNT = simulatedAccount();

function logicalId(template: CloudFormationTemplate, prefix: string, type: string): string {
  const id = Object.keys(template.Resources).find(
    (key) => key.startsWith(prefix) && template.Resources[key]?.Type === type,
  );
  if (id === undefined) throw new Error(`no ${type} ${prefix}`);
  return id;
}

function allows(policies: TemplatePolicies, fn: string, action: string, resource: string) {
  const role = [...policies.roleOfFunction].find(([id]) => id.startsWith(fn))?.[1] ?? '';
  const decision = evaluatePolicies(policies.policiesByRole.get(role) ?? [], {
    action,
    resource,
    context: requestContextOf({ 'aws:RequestedRegion': ACCOUNT.region }),
  });
  return decision.effect === 'allow';
}

describe('template policies on an EKS cluster', () => {
  const template = buildStack(EKS_CONTEXT).template.toJSON() as CloudFormationTemplate;
  const policies = templatePolicies(template, ACCOUNT);
  const resources = new PhysicalResources(template.Resources, ACCOUNT);

  it('maps every function to its own role, each with the policies attached to it', () => {
    // Prepare
    const functions = ['Controller', 'Interruption', 'WakeWebhook', 'Api', 'AuditLogs'];

    // Act
    const roles = functions.map(
      (fn) => [...policies.roleOfFunction].find(([id]) => id.startsWith(fn))?.[1],
    );

    // Assess
    expect(new Set(roles).size).toBe(functions.length);
    for (const [index, fn] of functions.entries()) {
      const roleId = logicalId(template, `${fn}Role`, 'AWS::IAM::Role');
      expect(roles[index]).toBe(`arn:aws:iam::111122223333:role/Nodesmith-${roleId}`);
      expect(policies.policiesByRole.get(roles[index] as string)?.length).toBeGreaterThan(0);
    }
  });

  it('leaves no intrinsic function in any policy', () => {
    // Act
    const text = JSON.stringify([...policies.policiesByRole.values()]);

    // Assess
    expect(text).not.toMatch(/"Ref"|"Fn::/);
    expect(text).toContain('"arn:aws:ec2:us-east-1:*:instance/*"');
  });

  it('lets the controller publish to the stack bus and send to the work queue, by their ARNs', () => {
    // Prepare
    const bus = logicalId(template, 'Decisions', 'AWS::Events::EventBus');
    const busName = template.Resources[bus]?.Properties?.Name as string;
    const work = logicalId(template, 'QueuesWork4', 'AWS::SQS::Queue');

    // Act
    const publish = allows(
      policies,
      'Controller',
      'events:PutEvents',
      `arn:aws:events:us-east-1:111122223333:event-bus/${busName}`,
    );
    const elsewhere = allows(
      policies,
      'Controller',
      'events:PutEvents',
      'arn:aws:events:us-east-1:111122223333:event-bus/default',
    );
    const send = allows(
      policies,
      'Controller',
      'sqs:SendMessage',
      resources.attribute(work, 'Arn'),
    );

    // Assess
    expect({ publish, elsewhere, send }).toEqual({ publish: true, elsewhere: false, send: true });
    expect(resources.attribute(work, 'Arn')).toBe(
      `arn:aws:sqs:us-east-1:111122223333:Nodesmith-${work}`,
    );
  });

  it('lets the admission wake read the wake token secret, by the ARN its Ref resolves to, and no other', () => {
    // Prepare
    const secret = resources.ref(
      logicalId(template, 'FunctionsWakeToken', 'AWS::SecretsManager::Secret'),
    );

    // Act
    const own = allows(policies, 'WakeWebhook', 'secretsmanager:GetSecretValue', secret);
    const other = allows(
      policies,
      'WakeWebhook',
      'secretsmanager:GetSecretValue',
      `${secret.slice(0, -6)}XXXXXX`,
    );

    // Assess
    expect(secret).toMatch(
      /^arn:aws:secretsmanager:us-east-1:111122223333:secret:Nodesmith-FunctionsWakeToken\w+-[\w-]{6}$/,
    );
    expect({ own, other }).toEqual({ own: true, other: false });
  });
});

describe('template policies on a self-managed cluster in a VPC', () => {
  const template = buildStack(SELF_MANAGED_CONTEXT, {
    region: 'eu-west-1',
  }).template.toJSON() as CloudFormationTemplate;
  const policies = templatePolicies(template, simulatedAccount({ region: 'eu-west-1' }));

  it('gives the functions in the VPC the vendored AWSLambdaVPCAccessExecutionRole, and the others not', () => {
    // Act
    const controller = allows(policies, 'Controller', 'ec2:CreateNetworkInterface', '*');
    const webhook = allows(policies, 'AuditWebhook', 'ec2:CreateNetworkInterface', '*');

    // Assess
    expect({ controller, webhook }).toEqual({ controller: true, webhook: false });
  });

  it("lets the controller read the cluster's kubeconfig secret named in the context", () => {
    // Act
    const read = allows(
      policies,
      'Controller',
      'secretsmanager:GetSecretValue',
      SELF_MANAGED_CONTEXT.clusterSecretArn,
    );

    // Assess
    expect(read).toBe(true);
  });
});

describe('intrinsic functions', () => {
  const template: CloudFormationTemplate = {
    Parameters: { Stage: { Default: 'prod' } },
    Resources: {
      Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'work' } },
      Topic: { Type: 'AWS::SNS::Topic' },
    },
  };
  const scope = {
    account: ACCOUNT,
    resources: new PhysicalResources(template.Resources, ACCOUNT),
    parameters: template.Parameters ?? {},
  };

  it.each([
    [{ Ref: 'AWS::URLSuffix' }, 'amazonaws.com'],
    [{ Ref: 'Stage' }, 'prod'],
    [{ Ref: 'Queue' }, 'https://sqs.us-east-1.amazonaws.com/111122223333/work'],
    [{ 'Fn::GetAtt': 'Queue.Arn' }, 'arn:aws:sqs:us-east-1:111122223333:work'],
    [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Fn::Sub's own placeholders
      { 'Fn::Sub': 'arn:${AWS::Partition}:s3:::${Stage}-${Queue.QueueName}-${!Literal}' },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: what Fn::Sub leaves of ${!Literal}
      'arn:aws:s3:::prod-work-${Literal}',
    ],
    [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Fn::Sub's own placeholders
      { 'Fn::Sub': ['${Name}/*', { Name: { Ref: 'Topic' } }] },
      'arn:aws:sns:us-east-1:111122223333:Nodesmith-Topic/*',
    ],
    [{ 'Fn::Select': [1, { 'Fn::Split': [',', 'a,b,c'] }] }, 'b'],
    [
      {
        'Fn::Join': [
          '',
          ['arn:', { Ref: 'AWS::Partition' }, ':iam::', { Ref: 'AWS::AccountId' }, ':root'],
        ],
      },
      'arn:aws:iam::111122223333:root',
    ],
  ])('resolves %j', (value, expected) => {
    // Act
    const resolved = resolveIntrinsics(value, scope);

    // Assess
    expect(resolved).toBe(expected);
  });

  it('refuses a function it cannot resolve rather than guess', () => {
    // Act
    const resolve = () => resolveIntrinsics({ 'Fn::ImportValue': 'Shared-VpcId' }, scope);

    // Assess
    expect(resolve).toThrow(/unsupported intrinsic function Fn::ImportValue/);
  });
});
