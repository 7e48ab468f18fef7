/**
 * How the functions that talk to Kubernetes are let in. On EKS, an access entry maps each
 * function's role to a group deploy/rbac.yaml binds — `nodesmith:controller` for the controller,
 * `nodesmith:interruption` (taint nodes, write Events) for the interruption function, the
 * read-only `nodesmith:reader` for the API's dry run (the cluster's authentication mode must
 * include API) — and the role may describe that one cluster. A self-managed cluster is reached
 * with the kubeconfig in a secret, which the roles may read.
 */
import { Stack } from 'aws-cdk-lib';
import { CfnAccessEntry } from 'aws-cdk-lib/aws-eks';
import { type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { ClusterAccess } from './config.ts';

/** The groups deploy/rbac.yaml binds; EKS forbids groups starting with `system:`. */
export const KubernetesGroup = {
  /** Reads the cluster, patches nodes, evicts and deletes pods. */
  controller: 'nodesmith:controller',
  /** Taints the node of an interrupted claim and writes its Event; nothing else. */
  interruption: 'nodesmith:interruption',
  /** Lists what a plan reads, and nothing more. */
  reader: 'nodesmith:reader',
} as const;

export interface ClusterAccessProps {
  readonly clusterName: string;
  readonly access: ClusterAccess;
  /** Roles of the functions that read or change the cluster, with the group each acts as. */
  readonly roles: Readonly<
    Record<
      string,
      {
        readonly role: IRole;
        readonly group: (typeof KubernetesGroup)[keyof typeof KubernetesGroup];
      }
    >
  >;
}

export class KubernetesAccess extends Construct {
  constructor(scope: Construct, id: string, props: ClusterAccessProps) {
    super(scope, id);
    const { access } = props;
    if (access.kind === 'self-managed') {
      const secret = Secret.fromSecretCompleteArn(this, 'Kubeconfig', access.kubeconfigSecretArn);
      for (const { role } of Object.values(props.roles)) secret.grantRead(role);
      return;
    }
    const stack = Stack.of(this);
    const cluster = `arn:${stack.partition}:eks:${stack.region}:${stack.account}:cluster/${props.clusterName}`;
    for (const [name, { role, group }] of Object.entries(props.roles)) {
      role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['eks:DescribeCluster'], resources: [cluster] }),
      );
      new CfnAccessEntry(this, name, {
        clusterName: props.clusterName,
        principalArn: role.roleArn,
        kubernetesGroups: [group],
        type: 'STANDARD',
      });
    }
  }
}
