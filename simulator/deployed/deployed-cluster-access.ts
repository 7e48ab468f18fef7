/**
 * The simulated cluster's access control as deployed (docs/design.md §9): a function's
 * credentials authenticate it — on EKS its token as its role's access entry says, on a
 * self-managed cluster the kubeconfig secret's token as the API server's token file says — and
 * RBAC — the objects of deploy/rbac.yaml (and deploy/rbac-adoption.yaml when the stack adopts) —
 * decides each request for its groups, less the Kubernetes permissions the run removes (`--deny
 * k8s:patch:nodes`). Every refusal is kept with the function that met it, when its credentials
 * name it, for the run's report.
 */
import { readFileSync } from 'node:fs';
import type { AccessControl, AccessRefusal } from '../api-server/access-control.ts';
import type { RequestAttributes } from '../api-server/request-attributes.ts';
import { RbacAuthorizer } from '../kubernetes-rbac/rbac-authorizer.ts';
import { parseRbacObjects } from '../kubernetes-rbac/rbac-objects.ts';
import { removedPermissions } from '../kubernetes-rbac/removed-permissions.ts';
import type { KubernetesDenial } from '../run/nodesmith.ts';

export interface ClusterAccessOptions {
  /** Who a request's credentials make its caller: the cluster's authenticator. */
  readonly authenticate: AccessControl['authenticate'];
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

/**
 * kube-apiserver authorizes `system:masters` before any other authorizer, whatever RBAC holds
 * (kubernetes/kubernetes, pkg/kubeapiserver/authorizer/config.go, `NewPrivilegedGroups`).
 */
function privileged(attributes: RequestAttributes): boolean {
  return attributes.user.groups.includes('system:masters');
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
    authenticate: options.authenticate,
    authorize: (attributes) => {
      if (privileged(attributes)) return { allowed: true, reason: '' };
      return removed(attributes) ? { allowed: false, reason: '' } : rbac.authorize(attributes);
    },
    refused: (refusal) => denied.push(denialOf(refusal)),
  };
  return { access, denied };
}
