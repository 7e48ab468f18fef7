/**
 * What one deployment needs to know, from `cdk.json` context or `-c key=value`, validated before
 * anything is built: a bad value stops `cdk synth` with the key, what was given and what was
 * expected, and no stack is produced. Keys are flat so each can be given on the command line.
 */
import * as z from 'zod';
import { CLUSTER_LIMIT_NAMES } from '../functions/contract/cluster-limit-names.ts';

/** CloudWatch Logs accepts only these retention periods. */
const RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288,
  3653,
] as const;

const clusterName = z
  .string()
  .regex(
    /^[0-9A-Za-z][A-Za-z0-9\-_]{0,99}$/,
    'must be an EKS cluster name: letters, digits, - and _, starting with a letter or digit, at most 100 characters',
  );

const arn = (service: string, resource: string) =>
  z
    .string()
    .regex(
      new RegExp(`^arn:aws[a-z-]*:${service}:[a-z0-9-]*:\\d{12}:${resource}`),
      `must be an ARN of the form arn:aws:${service}:…:${resource}…`,
    );

/** `-c key=true` arrives as text; cdk.json gives a boolean. */
const flag = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean({ error: 'must be true or false' }),
);

/** A number or a list given on the command line arrives as text. */
const wholeNumber = z.coerce.number().int();
const commaList = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : value,
  z
    .array(
      z
        .string()
        .regex(/^subnet-([0-9a-f]{8}|[0-9a-f]{17})$/, 'must be subnet ids such as subnet-0a1b2c3d'),
    )
    .min(1),
);

/**
 * The largest CA kept in the controller's environment: Lambda allows 4 KB of variables in all,
 * and the others (names, URLs, ARNs, limits) take up to about 1 KB.
 */
const CA_IN_ENVIRONMENT = 3072;

/** A quantity as a limit's value (the functions check it again with Kubernetes' rules). */
const QUANTITY = /^\+?(\d+\.?\d*|\.\d+)([eE][-+]?\d+|[numkMGTPE]|[KMGTPE]i)?$/;

/** The cluster's starting limits: a map in cdk.json, or its JSON text from `-c limits='{…}'`. */
const limits = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  },
  z
    .record(
      z.string(),
      z.union([
        z.number().nonnegative(),
        z.string().regex(QUANTITY, 'must be a quantity such as 400, 2000Gi or 0.5'),
      ]),
      {
        error: (issue) =>
          issue.code === 'invalid_type'
            ? 'must be a map of limits such as {"nodes": "400", "nodesmith.io/hourly-cost": "900"}'
            : undefined,
      },
    )
    .superRefine((map, ctx) => {
      for (const name of Object.keys(map)) {
        if (CLUSTER_LIMIT_NAMES.includes(name) || name.includes('/')) continue;
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `must be one of ${CLUSTER_LIMIT_NAMES.join(', ')} or an extended resource`,
        });
      }
    }),
);

const contextFields = z.strictObject({
  clusterName,
  /** The role the nodes run as; the only role Nodesmith may pass. */
  nodeRoleArn: arn('iam', 'role/'),
  /** A self-managed cluster: its API endpoint, CA and the secret holding a kubeconfig. */
  clusterEndpoint: z.url({ protocol: /^https$/, error: 'must be an https:// URL' }).optional(),
  /** Left out, the functions read `certificateAuthorityData` from the kubeconfig secret. */
  clusterCertificateAuthority: z
    .base64('must be the base64 PEM of the cluster CA')
    .max(
      CA_IN_ENVIRONMENT,
      `is too large for Lambda's 4 KB environment beside the other settings: leave it out and the functions read certificateAuthorityData from the clusterSecretArn secret`,
    )
    .optional(),
  clusterSecretArn: z
    .string()
    .regex(
      /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[\w/+=.@-]+-[A-Za-z0-9]{6}$/,
      'must be the complete ARN of a secret, with the six-character suffix Secrets Manager adds',
    )
    .optional(),
  kubernetesVersion: z
    .string()
    .regex(/^1\.\d+$/, 'must be a Kubernetes minor version such as 1.33')
    .optional(),
  serviceCidr: z
    .string()
    .regex(/^\d+\.\d+\.\d+\.\d+\/\d+$/, 'must be a CIDR such as 10.100.0.0/16')
    .optional(),
  /** For a private endpoint: the functions that reach the cluster run in these subnets. */
  vpcId: z
    .string()
    .regex(/^vpc-([0-9a-f]{8}|[0-9a-f]{17})$/, 'must be a VPC id such as vpc-0a1b2c3d')
    .optional(),
  subnetIds: commaList.optional(),
  /**
   * The cluster's security group: the stack lets the functions' security group reach its
   * API endpoint (HTTPS) in it. Left out, the operator adds that rule (the guide shows it).
   */
  clusterSecurityGroupId: z
    .string()
    .regex(/^sg-([0-9a-f]{8}|[0-9a-f]{17})$/, 'must be a security group id such as sg-0a1b2c3d')
    .optional(),
  /** How often the controller passes when nothing wakes it. */
  tickMinutes: wholeNumber.min(1).max(60).default(1),
  logRetentionDays: wholeNumber
    .refine((days) => (RETENTION_DAYS as readonly number[]).includes(days), {
      message: `must be one of ${RETENTION_DAYS.join(', ')}`,
    })
    .default(30),
  /**
   * An EKS cluster's audit log group, subscribed to the audit relay: for clusters that already
   * pay for audit logs. Left out, the admission wake and the tick are the wakes.
   */
  auditLogGroupName: z.string().min(1).optional(),
  /**
   * `POST /v1/audit`, its function and bearer token, for a self-managed cluster's audit webhook.
   * Left out: on for a self-managed cluster, off on EKS, which cannot send one.
   */
  auditWebhook: flag.optional(),
  /** The functions' CloudWatch metrics (Powertools EMF): the controller's and interruption's. */
  metrics: flag.default(true),
  /** Alarms on dead letters, function errors and the capacity error rate, to an SNS topic. */
  alarms: flag.default(true),
  /** The CloudWatch dashboard of the controller's metrics. Left out: as `metrics`. */
  dashboard: flag.optional(),
  /** The cluster's limits until some are set through the API (`nodesmith limits set`). */
  limits: limits.optional(),
  /**
   * Concurrency reserved for the controller. Left out, none is reserved: the lease already
   * makes one pass the writer, and an account still at Lambda's new-account concurrency quota
   * cannot reserve any (CloudFormation keeps 10 unreserved).
   */
  controllerReservedConcurrency: wholeNumber.min(2).max(1000).optional(),
  /**
   * Karpenter's running nodes become Nodesmith's (its claims made from their NodeClaims, their
   * instances tagged as its own) instead of being left alone.
   */
  adoptKarpenterNodes: flag.default(false),
});

type Context = z.output<typeof contextFields>;

const contextSchema = contextFields
  .superRefine(checkClusterKind)
  .superRefine(checkVpc)
  .superRefine(checkAuditLogGroup)
  .superRefine(checkMonitoring);

const SELF_MANAGED = [
  'clusterSecretArn',
  'kubernetesVersion',
] as const satisfies readonly (keyof Context)[];

/** A self-managed cluster needs all of its connection settings; an EKS cluster none of them. */
function checkClusterKind(context: Context, ctx: z.RefinementCtx): void {
  if (context.clusterEndpoint === undefined) {
    if (context.auditWebhook === true) {
      ctx.addIssue({
        code: 'custom',
        path: ['auditWebhook'],
        message:
          'is for self-managed clusters: EKS cannot send an audit webhook; apply deploy/wake-webhook.yaml, or set auditLogGroupName to read the audit log',
      });
    }
    for (const key of [...SELF_MANAGED, 'serviceCidr', 'clusterCertificateAuthority'] as const) {
      if (context[key] !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'is only for a self-managed cluster: set clusterEndpoint as well',
        });
      }
    }
    return;
  }
  for (const key of SELF_MANAGED) {
    if (context[key] === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: 'is required when clusterEndpoint names a self-managed cluster',
      });
    }
  }
  if (context.auditLogGroupName !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['auditLogGroupName'],
      message: 'is for EKS clusters; a self-managed cluster posts to the audit webhook',
    });
  }
}

/** EKS writes a cluster's control plane logs, audit among them, to this one group. */
function checkAuditLogGroup(context: Context, ctx: z.RefinementCtx): void {
  const expected = `/aws/eks/${context.clusterName}/cluster`;
  if (context.auditLogGroupName === undefined || context.auditLogGroupName === expected) return;
  ctx.addIssue({
    code: 'custom',
    path: ['auditLogGroupName'],
    message: `must be ${expected}, where EKS writes the cluster’s audit log`,
  });
}

/** The dashboard shows the controller's metrics; it would be empty without them. */
function checkMonitoring(context: Context, ctx: z.RefinementCtx): void {
  if (context.dashboard !== true || context.metrics) return;
  ctx.addIssue({
    code: 'custom',
    path: ['dashboard'],
    message: 'shows the controller’s metrics: set metrics=true as well, or leave dashboard out',
  });
}

function checkVpc(context: Context, ctx: z.RefinementCtx): void {
  if (context.clusterSecurityGroupId !== undefined && context.vpcId === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['clusterSecurityGroupId'],
      message: 'is for functions in a VPC: set vpcId and subnetIds as well',
    });
  }
  if ((context.vpcId === undefined) === (context.subnetIds === undefined)) return;
  const missing = context.vpcId === undefined ? 'vpcId' : 'subnetIds';
  ctx.addIssue({
    code: 'custom',
    path: [missing],
    message: 'vpcId and subnetIds go together: the functions run in those subnets of that VPC',
  });
}

/** How the functions reach the Kubernetes API. */
export type ClusterAccess =
  | { readonly kind: 'eks' }
  | {
      readonly kind: 'self-managed';
      readonly endpoint: string;
      /** Absent: read from the kubeconfig secret. */
      readonly certificateAuthority?: string;
      readonly kubeconfigSecretArn: string;
      readonly kubernetesVersion: string;
      readonly serviceCidr?: string;
    };

export interface NodesmithConfig {
  readonly clusterName: string;
  readonly nodeRoleArn: string;
  readonly cluster: ClusterAccess;
  readonly vpc?: {
    readonly vpcId: string;
    readonly subnetIds: readonly string[];
    /** The cluster's security group, to let the functions in. */
    readonly clusterSecurityGroupId?: string;
  };
  readonly tickMinutes: number;
  readonly logRetentionDays: number;
  readonly auditLogGroupName?: string;
  /** `POST /v1/audit` and its function and token, for a self-managed cluster's audit webhook. */
  readonly auditWebhook: boolean;
  /** Which of the monitoring lines of docs/cost.md the stack adds. */
  readonly monitoring: {
    readonly metrics: boolean;
    readonly alarms: boolean;
    readonly dashboard: boolean;
  };
  /** The cluster's starting limits, as the functions read them (`CLUSTER_LIMITS`). */
  readonly limits?: Readonly<Record<string, string>>;
  /** Concurrency reserved for the controller; none when absent. */
  readonly controllerReservedConcurrency?: number;
  /** Karpenter's running nodes are adopted rather than left alone (`ADOPT_KARPENTER_NODES`). */
  readonly adoptKarpenterNodes: boolean;
}

/** The context keys a deployment reads; anything else in context is CDK's own. */
export const CONFIG_KEYS = Object.keys(contextFields.shape) as readonly string[];

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function describe(issue: z.core.$ZodIssue, context: Readonly<Record<string, unknown>>): string {
  const key = issue.path.join('.') || '(context)';
  // The value at the issue's path; a bad key of a map is shown itself.
  let given: unknown = issue.path.length > 0 ? context : undefined;
  for (const step of issue.path) {
    given = isRecord(given) ? given[String(step)] : undefined;
  }
  const got = given === undefined ? 'nothing' : JSON.stringify(given);
  return `${key}: ${issue.message}, got ${got}`;
}

/**
 * The deployment's configuration from context values (cdk.json's `context`, `-c` flags).
 * @throws ConfigError listing every invalid key, each with what was given and what is expected
 */
export function loadConfig(context: Readonly<Record<string, unknown>>): NodesmithConfig {
  const ours = Object.fromEntries(
    Object.entries(context).filter(([key]) => CONFIG_KEYS.includes(key)),
  );
  const parsed = contextSchema.safeParse(ours);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${describe(issue, ours)}`);
    throw new ConfigError(`invalid Nodesmith configuration:\n${lines.join('\n')}`);
  }
  return toConfig(parsed.data);
}

function clusterAccessOf(context: Context): ClusterAccess {
  const {
    clusterEndpoint,
    clusterCertificateAuthority,
    clusterSecretArn,
    kubernetesVersion,
    serviceCidr,
  } = context;
  if (clusterEndpoint === undefined) return { kind: 'eks' };
  return {
    kind: 'self-managed',
    endpoint: clusterEndpoint,
    ...(clusterCertificateAuthority === undefined
      ? {}
      : { certificateAuthority: clusterCertificateAuthority }),
    kubeconfigSecretArn: clusterSecretArn ?? '',
    kubernetesVersion: kubernetesVersion ?? '',
    ...(serviceCidr === undefined ? {} : { serviceCidr }),
  };
}

function vpcOf(context: Context): Pick<NodesmithConfig, 'vpc'> {
  const { vpcId, subnetIds, clusterSecurityGroupId } = context;
  if (vpcId === undefined || subnetIds === undefined) return {};
  return {
    vpc: {
      vpcId,
      subnetIds,
      ...(clusterSecurityGroupId === undefined ? {} : { clusterSecurityGroupId }),
    },
  };
}

function toConfig(context: Context): NodesmithConfig {
  return {
    clusterName: context.clusterName,
    nodeRoleArn: context.nodeRoleArn,
    cluster: clusterAccessOf(context),
    ...vpcOf(context),
    tickMinutes: context.tickMinutes,
    logRetentionDays: context.logRetentionDays,
    adoptKarpenterNodes: context.adoptKarpenterNodes,
    auditWebhook: context.auditWebhook ?? context.clusterEndpoint !== undefined,
    monitoring: {
      metrics: context.metrics,
      alarms: context.alarms,
      dashboard: context.dashboard ?? context.metrics,
    },
    ...(context.auditLogGroupName === undefined
      ? {}
      : { auditLogGroupName: context.auditLogGroupName }),
    ...(context.limits === undefined
      ? {}
      : {
          limits: Object.fromEntries(
            Object.entries(context.limits).map(([name, value]) => [name, String(value)]),
          ),
        }),
    ...(context.controllerReservedConcurrency === undefined
      ? {}
      : { controllerReservedConcurrency: context.controllerReservedConcurrency }),
  };
}
