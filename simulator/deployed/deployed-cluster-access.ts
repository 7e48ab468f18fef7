/**
 * The simulated cluster's access control as deployed (docs/design.md §9): a function's EKS token
 * authenticates it as its role's access entry says, and RBAC — the objects of deploy/rbac.yaml
 * (and deploy/rbac-adoption.yaml when the stack adopts) — decides each request for its groups,
 * less the Kubernetes permissions the run removes (`--deny k8s:patch:nodes`). Every refusal is
 * kept with the function that met it, for the run's report.
 */
import { readFileSync } from 'node:fs';
import type { AccessControl, AccessRefusal } from '../api-server/access-control.ts';
import type { RequestAttributes } from '../api-server/request-attributes.ts';
import {
  type AccessEntry,
  eksAuthenticator,
  type KeyHolder,
} from '../aws/eks/eks-authenticator.ts';
import type { EksTokenCheckOptions } from '../aws/eks/eks-token-check.ts';
import { RbacAuthorizer } from '../kubernetes-rbac/rbac-authorizer.ts';
import { parseRbacObjects } from '../kubernetes-rbac/rbac-objects.ts';
import { removedPermissions } from '../kubernetes-rbac/removed-permissions.ts';
import type { KubernetesDenial } from '../run/nodesmith.ts';

export interface ClusterAccessOptions extends EksTokenCheckOptions {
  readonly accountId: string;
  readonly holderOf: (accessKeyId: string) => KeyHolder | undefined;
  readonly accessEntries: readonly AccessEntry[];
  /** The RBAC files applied to the cluster. */
  readonly rbacFiles: readonly string[];
  /** The run's `--deny` list: its `k8s:` entries are taken from every group. */
  readonly deny: readonly string[];
}

/** `nodeclaims.karpenter.sh`, `pods/eviction`: the resource as kubectl names it. */
function resourceOf(attributes: RequestAttributes): string {
  const group = attributes.apiGroup === '' ? '' : `.${attributes.apiGroup}`;
  const sub = attributes.subresource === '' ? '' : `/${attributes.subresource}`;
  return attributes.isResourceRequest ? `${attributes.resource}${group}${sub}` : attributes.path;
}

function denialOf(refusal: AccessRefusal): KubernetesDenial {
  const { attributes, message } = refusal;
  if (attributes === undefined) return { message };
  const session = attributes.user.extra?.sessionName?.[0];
  return {
    ...(session === undefined ? {} : { function: session }),
    user: attributes.user.name,
    verb: attributes.verb,
    resource: resourceOf(attributes),
    ...(attributes.namespace === '' ? {} : { namespace: attributes.namespace }),
    ...(attributes.name === '' ? {} : { name: attributes.name }),
    message,
  };
}

export function deployedClusterAccess(options: ClusterAccessOptions): {
  readonly access: AccessControl;
  readonly denied: readonly KubernetesDenial[];
} {
  const rbac = new RbacAuthorizer(
    options.rbacFiles.flatMap((file) => parseRbacObjects(readFileSync(file, 'utf8'))),
  );
  const removed = removedPermissions(options.deny);
  const denied: KubernetesDenial[] = [];
  const access: AccessControl = {
    authenticate: eksAuthenticator(options),
    authorize: (attributes) =>
      removed(attributes) ? { allowed: false, reason: '' } : rbac.authorize(attributes),
    refused: (refusal) => denied.push(denialOf(refusal)),
  };
  return { access, denied };
}
