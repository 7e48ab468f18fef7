/**
 * Who an EKS bearer token makes its caller in Kubernetes (docs.aws.amazon.com/eks/latest/
 * userguide/access-entries.html; kubernetes-sigs/aws-iam-authenticator pkg/server/server.go):
 * the token is checked as the authenticator checks it (eks-token-check.ts), the access key it
 * was signed with names the caller's role, and the cluster's access entry for that role gives
 * the Kubernetes groups and the username — by default the role's session ARN,
 * `arn:aws:sts::<account>:assumed-role/<role>/{{SessionName}}`. A token that does not hold, or a
 * role with no access entry, is refused (401). A request with no EKS token is not this
 * authenticator's: it is let in unchecked, as the simulation's own clients are.
 */
import { TOKEN_PREFIX } from '../../../functions/adapters/eks/eks-token.ts';
import type { UserInfo } from '../../api-server/request-attributes.ts';
import { assumedRoleArn } from '../sts/sts-service.ts';
import { checkEksToken, type EksTokenCheckOptions } from './eks-token-check.ts';
import { rememberedSignatures } from './remembered-signatures.ts';

/** An `AWS::EKS::AccessEntry` of type STANDARD. */
export interface AccessEntry {
  readonly principalArn: string;
  readonly kubernetesGroups: readonly string[];
  /** `{{SessionName}}` is replaced by the caller's session; the session ARN when absent. */
  readonly username?: string;
}

/** The holder of an access key the account issued: its role and the session it signs as. */
export interface KeyHolder {
  readonly roleArn: string;
  /** Lambda names a function's role session after the function. */
  readonly sessionName: string;
}

export interface EksAuthenticatorOptions extends EksTokenCheckOptions {
  readonly accountId: string;
  readonly holderOf: (accessKeyId: string) => KeyHolder | undefined;
  readonly accessEntries: readonly AccessEntry[];
}

export type Authentication = UserInfo | 'unauthorized' | undefined;

const BEARER = 'Bearer ';
const SESSION_NAME = '{{SessionName}}';

function userOf(entry: AccessEntry, holder: KeyHolder, accessKeyId: string, accountId: string) {
  const sessionArn = assumedRoleArn(accountId, holder.roleArn, holder.sessionName);
  const name = (
    entry.username ?? `${assumedRoleArn(accountId, holder.roleArn, SESSION_NAME)}`
  ).replaceAll(SESSION_NAME, holder.sessionName);
  return {
    name,
    groups: [...entry.kubernetesGroups, 'system:authenticated'],
    extra: {
      arn: [sessionArn],
      canonicalArn: [holder.roleArn],
      sessionName: [holder.sessionName],
      accessKeyId: [accessKeyId],
    },
  };
}

export function eksAuthenticator(
  options: EksAuthenticatorOptions,
): (authorization: string | undefined) => Promise<Authentication> {
  const signatures = rememberedSignatures();
  return async (authorization) => {
    if (!authorization?.startsWith(`${BEARER}${TOKEN_PREFIX}`)) return undefined;
    const verdict = await checkEksToken(authorization.slice(BEARER.length), options, signatures);
    if (!verdict.accepted) return 'unauthorized';
    const holder = options.holderOf(verdict.accessKeyId);
    const entry = options.accessEntries.find((e) => e.principalArn === holder?.roleArn);
    if (holder === undefined || entry === undefined) return 'unauthorized';
    return userOf(entry, holder, verdict.accessKeyId, options.accountId);
  };
}
