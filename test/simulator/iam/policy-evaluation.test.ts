/**
 * The evaluator on the examples of AWS's IAM User Guide, ported as they are written there: each
 * row names its page, the policy as printed, a request the page describes and the outcome it
 * states. Pages: "Policy evaluation logic" (the carlossalazar policy; the difference between
 * explicit and implicit denies), "Condition operators" (string, numeric, date, Boolean, ARN,
 * …IfExists and Null), "NotAction", and "Creating a condition that tests multiple key values"
 * (ForAllValues and ForAnyValue over `dynamodb:requestedAttributes`).
 */
import { describe, expect, it } from 'vitest';
import { requestContextOf } from '../../../simulator/iam/condition-operators.ts';
import type { PolicyDocument, PolicyStatement } from '../../../simulator/iam/policy-document.ts';
import { evaluatePolicies } from '../../../simulator/iam/policy-evaluation.ts';

type Effect = 'allow' | 'explicit-deny' | 'implicit-deny';

interface Example {
  readonly page: string;
  readonly statement: PolicyStatement | readonly PolicyStatement[];
  readonly action: string;
  readonly resource: string;
  readonly context?: Readonly<Record<string, string | readonly string[]>>;
  readonly effect: Effect;
}

const CARLOS: readonly PolicyStatement[] = [
  {
    Sid: 'AllowS3ListRead',
    Effect: 'Allow',
    Action: [
      's3:GetBucketLocation',
      's3:GetAccountPublicAccessBlock',
      's3:ListAccessPoints',
      's3:ListAllMyBuckets',
    ],
    Resource: 'arn:aws:s3:::*',
  },
  {
    Sid: 'AllowS3Self',
    Effect: 'Allow',
    Action: 's3:*',
    Resource: ['arn:aws:s3:::carlossalazar/*', 'arn:aws:s3:::carlossalazar'],
  },
  { Sid: 'DenyS3Logs', Effect: 'Deny', Action: 's3:*', Resource: 'arn:aws:s3:::*log*' },
];

const GET_LIST_NOT_REPORTS: readonly PolicyStatement[] = [
  { Sid: 'AllowGetList', Effect: 'Allow', Action: ['iam:Get*', 'iam:List*'], Resource: '*' },
  { Sid: 'DenyReports', Effect: 'Deny', Action: 'iam:*Report', Resource: '*' },
];

const ACCESS_KEYS_FOR_ADMINS: PolicyStatement = {
  Effect: 'Allow',
  Action: 'iam:*AccessKey*',
  Resource: 'arn:aws:iam::account-id:user/*',
  Condition: { StringEquals: { 'aws:PrincipalTag/job-category': 'iamuser-admin' } },
};

const UP_TO_TEN_KEYS: PolicyStatement = {
  Effect: 'Allow',
  Action: 's3:ListBucket',
  Resource: 'arn:aws:s3:::example_bucket',
  Condition: { NumericLessThanEquals: { 's3:max-keys': '10' } },
};

const FRESH_CREDENTIALS: PolicyStatement = {
  Effect: 'Allow',
  Action: 'iam:*AccessKey*',
  Resource: 'arn:aws:iam::account-id:user/*',
  Condition: { DateGreaterThan: { 'aws:TokenIssueTime': '2020-01-01T00:00:01Z' } },
};

const DENY_WITHOUT_TLS: PolicyStatement = {
  Sid: 'BooleanExample',
  Action: 's3:*',
  Effect: 'Deny',
  Resource: ['arn:aws:s3:::DOC-EXAMPLE-BUCKET', 'arn:aws:s3:::DOC-EXAMPLE-BUCKET/*'],
  Condition: { Bool: { 'aws:SecureTransport': 'false' } },
};

/** The guide's pattern, once under StringLike and once under ArnLike. */
function fromFinance(operator: 'StringLike' | 'ArnLike'): PolicyStatement {
  return {
    Effect: 'Allow',
    Action: 'SQS:SendMessage',
    Resource: 'arn:aws:sqs:REGION:123456789012:QUEUE-ID',
    Condition: { [operator]: { 'aws:SourceArn': 'arn:aws:someservice:*:111122223333:finance/*' } },
  };
}
const FINANCE_LOOKALIKE =
  'arn:aws:someservice:us-east-2:999999999999:store/abc:111122223333:finance/document.txt';

const INSTANCE_TYPES = { 'ec2:InstanceType': ['t1.*', 't2.*', 'm3.*'] };
const DOES_NOT_WORK: PolicyStatement = {
  Sid: 'THISPOLICYDOESNOTWORK',
  Effect: 'Allow',
  Action: 'ec2:RunInstances',
  Resource: '*',
  Condition: { StringLike: INSTANCE_TYPES },
};
const RUN_INSTANCE: PolicyStatement = {
  Sid: 'RunInstance',
  Effect: 'Allow',
  Action: 'ec2:RunInstances',
  Resource: '*',
  Condition: { StringLikeIfExists: INSTANCE_TYPES },
};

const NO_TEMPORARY_CREDENTIALS: PolicyStatement = {
  Action: 'ec2:*',
  Effect: 'Allow',
  Resource: '*',
  Condition: { Null: { 'aws:TokenIssueTime': 'true' } },
};

const ALL_S3_BUT_DELETE_BUCKET: PolicyStatement = {
  Effect: 'Allow',
  NotAction: 's3:DeleteBucket',
  Resource: 'arn:aws:s3:::*',
};
const ALL_BUT_IAM: PolicyStatement = { Effect: 'Allow', NotAction: 'iam:*', Resource: '*' };
const DENY_WITHOUT_MFA: PolicyStatement = {
  Sid: 'DenyAllUsersNotUsingMFA',
  Effect: 'Deny',
  NotAction: 'iam:*',
  Resource: '*',
  Condition: { BoolIfExists: { 'aws:MultiFactorAuthPresent': 'false' } },
};

const THREAD = 'arn:aws:dynamodb:REGION:ACCOUNT-ID-WITHOUT-HYPHENS:table/Thread';
const ONLY_SOME_ATTRIBUTES: PolicyStatement = {
  Effect: 'Allow',
  Action: 'GetItem',
  Resource: THREAD,
  Condition: {
    'ForAllValues:StringLike': {
      'dynamodb:requestedAttributes': ['PostDateTime', 'Message', 'Tags'],
    },
  },
};
const NEVER_ID_OR_DATE: PolicyStatement = {
  Effect: 'Deny',
  Action: 'PutItem',
  Resource: THREAD,
  Condition: {
    'ForAnyValue:StringLike': { 'dynamodb:requestedAttributes': ['ID', 'PostDateTime'] },
  },
};
const attributes = (...names: string[]) => ({ 'dynamodb:requestedAttributes': names });

const EXAMPLES: readonly Example[] = [
  // Policy evaluation logic
  {
    page: 'evaluation: Carlos saves to a bucket with log in its name',
    statement: CARLOS,
    action: 's3:PutObject',
    resource: 'arn:aws:s3:::carlossalazar-logs/file',
    effect: 'explicit-deny',
  },
  {
    page: 'evaluation: Carlos saves to his own bucket',
    statement: CARLOS,
    action: 's3:PutObject',
    resource: 'arn:aws:s3:::carlossalazar/file',
    effect: 'allow',
  },
  {
    page: 'evaluation: Carlos lists every bucket',
    statement: CARLOS,
    action: 's3:ListAllMyBuckets',
    resource: 'arn:aws:s3:::carlossalazar',
    effect: 'allow',
  },
  {
    page: 'evaluation: Get and List actions are allowed',
    statement: GET_LIST_NOT_REPORTS,
    action: 'iam:GetRole',
    resource: '*',
    effect: 'allow',
  },
  {
    page: 'evaluation: other IAM actions are implicitly denied',
    statement: GET_LIST_NOT_REPORTS,
    action: 'iam:CreatePolicy',
    resource: '*',
    effect: 'implicit-deny',
  },
  {
    page: 'evaluation: reports are explicitly denied',
    statement: GET_LIST_NOT_REPORTS,
    action: 'iam:GetOrganizationsAccessReport',
    resource: '*',
    effect: 'explicit-deny',
  },
  {
    page: 'evaluation: action names match whatever their case',
    statement: GET_LIST_NOT_REPORTS,
    action: 'IAM:listroles',
    resource: '*',
    effect: 'allow',
  },
  // Condition operators: string
  {
    page: 'StringEquals: a principal tagged iamuser-admin',
    statement: ACCESS_KEYS_FOR_ADMINS,
    action: 'iam:CreateAccessKey',
    resource: 'arn:aws:iam::account-id:user/alice',
    context: { 'aws:PrincipalTag/job-category': 'iamuser-admin' },
    effect: 'allow',
  },
  {
    page: 'StringEquals: condition keys match whatever their case',
    statement: ACCESS_KEYS_FOR_ADMINS,
    action: 'iam:UpdateAccessKey',
    resource: 'arn:aws:iam::account-id:user/alice',
    context: { 'AWS:PRINCIPALTAG/JOB-CATEGORY': 'iamuser-admin' },
    effect: 'allow',
  },
  {
    page: 'StringEquals: values are case-sensitive',
    statement: ACCESS_KEYS_FOR_ADMINS,
    action: 'iam:CreateAccessKey',
    resource: 'arn:aws:iam::account-id:user/alice',
    context: { 'aws:PrincipalTag/job-category': 'IAMUSER-ADMIN' },
    effect: 'implicit-deny',
  },
  {
    page: 'StringEquals: a user without the tag',
    statement: ACCESS_KEYS_FOR_ADMINS,
    action: 'iam:CreateAccessKey',
    resource: 'arn:aws:iam::account-id:user/alice',
    effect: 'implicit-deny',
  },
  // numeric
  {
    page: 'NumericLessThanEquals: ten keys',
    statement: UP_TO_TEN_KEYS,
    action: 's3:ListBucket',
    resource: 'arn:aws:s3:::example_bucket',
    context: { 's3:max-keys': '10' },
    effect: 'allow',
  },
  {
    page: 'NumericLessThanEquals: eleven keys',
    statement: UP_TO_TEN_KEYS,
    action: 's3:ListBucket',
    resource: 'arn:aws:s3:::example_bucket',
    context: { 's3:max-keys': '11' },
    effect: 'implicit-deny',
  },
  // date
  {
    page: 'DateGreaterThan: credentials issued in 2020',
    statement: FRESH_CREDENTIALS,
    action: 'iam:ListAccessKeys',
    resource: 'arn:aws:iam::account-id:user/alice',
    context: { 'aws:TokenIssueTime': '2020-06-30T12:00:00Z' },
    effect: 'allow',
  },
  {
    page: 'DateGreaterThan: credentials issued before',
    statement: FRESH_CREDENTIALS,
    action: 'iam:ListAccessKeys',
    resource: 'arn:aws:iam::account-id:user/alice',
    context: { 'aws:TokenIssueTime': '2019-12-31T23:59:59Z' },
    effect: 'implicit-deny',
  },
  {
    page: 'DateGreaterThan: access keys carry no issue time',
    statement: FRESH_CREDENTIALS,
    action: 'iam:ListAccessKeys',
    resource: 'arn:aws:iam::account-id:user/alice',
    effect: 'implicit-deny',
  },
  // Boolean
  {
    page: 'Bool: a request without TLS is denied',
    statement: DENY_WITHOUT_TLS,
    action: 's3:GetObject',
    resource: 'arn:aws:s3:::DOC-EXAMPLE-BUCKET/key',
    context: { 'aws:SecureTransport': 'false' },
    effect: 'explicit-deny',
  },
  {
    page: 'Bool: the policy allows nothing by itself',
    statement: DENY_WITHOUT_TLS,
    action: 's3:GetObject',
    resource: 'arn:aws:s3:::DOC-EXAMPLE-BUCKET/key',
    context: { 'aws:SecureTransport': 'true' },
    effect: 'implicit-deny',
  },
  // ARN
  {
    page: 'StringLike: the first * spans colons',
    statement: fromFinance('StringLike'),
    action: 'sqs:SendMessage',
    resource: 'arn:aws:sqs:REGION:123456789012:QUEUE-ID',
    context: { 'aws:SourceArn': FINANCE_LOOKALIKE },
    effect: 'allow',
  },
  {
    page: 'ArnLike: the first * stays in the region',
    statement: fromFinance('ArnLike'),
    action: 'sqs:SendMessage',
    resource: 'arn:aws:sqs:REGION:123456789012:QUEUE-ID',
    context: { 'aws:SourceArn': FINANCE_LOOKALIKE },
    effect: 'implicit-deny',
  },
  {
    page: 'ArnLike: a document of the finance account',
    statement: fromFinance('ArnLike'),
    action: 'sqs:SendMessage',
    resource: 'arn:aws:sqs:REGION:123456789012:QUEUE-ID',
    context: { 'aws:SourceArn': 'arn:aws:someservice:us-east-2:111122223333:finance/document.txt' },
    effect: 'allow',
  },
  // …IfExists
  {
    page: 'StringLike: the image has no instance type, so no launch',
    statement: DOES_NOT_WORK,
    action: 'ec2:RunInstances',
    resource: 'arn:aws:ec2:us-east-1::image/ami-12345678',
    effect: 'implicit-deny',
  },
  {
    page: 'StringLike: a t2 instance',
    statement: DOES_NOT_WORK,
    action: 'ec2:RunInstances',
    resource: 'arn:aws:ec2:us-east-1:123456789012:instance/*',
    context: { 'ec2:InstanceType': 't2.micro' },
    effect: 'allow',
  },
  {
    page: 'StringLikeIfExists: the image passes',
    statement: RUN_INSTANCE,
    action: 'ec2:RunInstances',
    resource: 'arn:aws:ec2:us-east-1::image/ami-12345678',
    effect: 'allow',
  },
  {
    page: 'StringLikeIfExists: a t2 instance',
    statement: RUN_INSTANCE,
    action: 'ec2:RunInstances',
    resource: 'arn:aws:ec2:us-east-1:123456789012:instance/*',
    context: { 'ec2:InstanceType': 't2.micro' },
    effect: 'allow',
  },
  {
    page: 'StringLikeIfExists: an m5 instance',
    statement: RUN_INSTANCE,
    action: 'ec2:RunInstances',
    resource: 'arn:aws:ec2:us-east-1:123456789012:instance/*',
    context: { 'ec2:InstanceType': 'm5.large' },
    effect: 'implicit-deny',
  },
  // Null
  {
    page: 'Null: long-term credentials',
    statement: NO_TEMPORARY_CREDENTIALS,
    action: 'ec2:DescribeInstances',
    resource: '*',
    effect: 'allow',
  },
  {
    page: 'Null: temporary credentials',
    statement: NO_TEMPORARY_CREDENTIALS,
    action: 'ec2:DescribeInstances',
    resource: '*',
    context: { 'aws:TokenIssueTime': '2020-06-30T12:00:00Z' },
    effect: 'implicit-deny',
  },
  // NotAction
  {
    page: 'NotAction: any S3 action on S3 resources',
    statement: ALL_S3_BUT_DELETE_BUCKET,
    action: 's3:GetObject',
    resource: 'arn:aws:s3:::bucket/key',
    effect: 'allow',
  },
  {
    page: 'NotAction: but not deleting a bucket',
    statement: ALL_S3_BUT_DELETE_BUCKET,
    action: 's3:DeleteBucket',
    resource: 'arn:aws:s3:::bucket',
    effect: 'implicit-deny',
  },
  {
    page: 'NotAction: ListAllMyBuckets needs the * resource',
    statement: ALL_S3_BUT_DELETE_BUCKET,
    action: 's3:ListAllMyBuckets',
    resource: '*',
    effect: 'implicit-deny',
  },
  {
    page: 'NotAction: every service but IAM',
    statement: ALL_BUT_IAM,
    action: 'ec2:RunInstances',
    resource: '*',
    effect: 'allow',
  },
  {
    page: 'NotAction: IAM is left out',
    statement: ALL_BUT_IAM,
    action: 'iam:CreateUser',
    resource: '*',
    effect: 'implicit-deny',
  },
  {
    page: 'NotAction with Deny: non-IAM actions without MFA',
    statement: DENY_WITHOUT_MFA,
    action: 'ec2:RunInstances',
    resource: '*',
    context: { 'aws:MultiFactorAuthPresent': 'false' },
    effect: 'explicit-deny',
  },
  {
    page: 'NotAction with Deny: BoolIfExists holds when MFA is unknown',
    statement: DENY_WITHOUT_MFA,
    action: 'ec2:RunInstances',
    resource: '*',
    effect: 'explicit-deny',
  },
  {
    page: 'NotAction with Deny: with MFA it denies nothing, and grants nothing',
    statement: DENY_WITHOUT_MFA,
    action: 'ec2:RunInstances',
    resource: '*',
    context: { 'aws:MultiFactorAuthPresent': 'true' },
    effect: 'implicit-deny',
  },
  {
    page: 'NotAction with Deny: IAM actions are not denied',
    statement: DENY_WITHOUT_MFA,
    action: 'iam:ChangePassword',
    resource: '*',
    context: { 'aws:MultiFactorAuthPresent': 'false' },
    effect: 'implicit-deny',
  },
  // Multivalued keys
  {
    page: 'ForAllValues: PostDateTime and Message are both listed',
    statement: ONLY_SOME_ATTRIBUTES,
    action: 'GetItem',
    resource: THREAD,
    context: attributes('PostDateTime', 'Message'),
    effect: 'allow',
  },
  {
    page: 'ForAllValues: ID is not listed',
    statement: ONLY_SOME_ATTRIBUTES,
    action: 'GetItem',
    resource: THREAD,
    context: attributes('PostDateTime', 'ID'),
    effect: 'implicit-deny',
  },
  {
    page: 'ForAllValues: UserName has no match',
    statement: ONLY_SOME_ATTRIBUTES,
    action: 'GetItem',
    resource: THREAD,
    context: attributes('PostDateTime', 'UserName'),
    effect: 'implicit-deny',
  },
  {
    page: 'ForAllValues: an empty set holds',
    statement: ONLY_SOME_ATTRIBUTES,
    action: 'GetItem',
    resource: THREAD,
    context: attributes(),
    effect: 'allow',
  },
  {
    page: 'ForAnyValue: PostDateTime among the updated attributes',
    statement: NEVER_ID_OR_DATE,
    action: 'PutItem',
    resource: THREAD,
    context: attributes('UserName', 'Message', 'PostDateTime'),
    effect: 'explicit-deny',
  },
  {
    page: 'ForAnyValue: UserName alone is not denied, only not allowed',
    statement: NEVER_ID_OR_DATE,
    action: 'PutItem',
    resource: THREAD,
    context: attributes('UserName'),
    effect: 'implicit-deny',
  },
  {
    page: 'ForAnyValue: an empty set does not hold',
    statement: NEVER_ID_OR_DATE,
    action: 'PutItem',
    resource: THREAD,
    context: attributes(),
    effect: 'implicit-deny',
  },
];

describe('IAM policy evaluation on the IAM User Guide examples', () => {
  it.each(EXAMPLES)('$page: $effect', ({ statement, action, resource, context, effect }) => {
    // Prepare
    const policy: PolicyDocument = { Version: '2012-10-17', Statement: statement };

    // Act
    const decision = evaluatePolicies([policy], {
      action,
      resource,
      context: requestContextOf(context ?? {}),
    });

    // Assess
    expect(decision.effect).toBe(effect);
  });

  it('gives every example the same outcome when the same policies are asked again and again', () => {
    // Prepare: one policies array per statement, as a run keeps one per role
    const shared = new Map<Example['statement'], PolicyDocument[]>();
    for (const { statement } of EXAMPLES) {
      if (!shared.has(statement)) shared.set(statement, [{ Statement: statement }]);
    }
    const evaluate = ({ statement, action, resource, context }: Example) =>
      evaluatePolicies(shared.get(statement) ?? [], {
        action,
        resource,
        context: requestContextOf(context ?? {}),
      }).effect;

    // Act: every example, then every example again in the other order
    const first = EXAMPLES.map(evaluate);
    const again = [...EXAMPLES].reverse().map(evaluate).reverse();

    // Assess
    const expected = EXAMPLES.map((example) => example.effect);
    expect(first).toEqual(expected);
    expect(again).toEqual(expected);
  });

  it('refuses an operator it does not know rather than guess', () => {
    // Prepare
    const policy: PolicyDocument = {
      Statement: {
        Effect: 'Allow',
        Action: '*',
        Resource: '*',
        Condition: { IpAddress: { 'aws:SourceIp': '203.0.113.0/24' } },
      },
    };

    // Act
    const evaluate = () =>
      evaluatePolicies([policy], {
        action: 'ec2:RunInstances',
        resource: '*',
        context: requestContextOf({}),
      });

    // Assess
    expect(evaluate).toThrow(/unsupported condition operator IpAddress/);
  });
});
