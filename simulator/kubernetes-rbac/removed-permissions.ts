/**
 * Kubernetes permissions taken from every group for a run (`--deny k8s:patch:nodes`), the RBAC
 * counterpart of removing an IAM action: RBAC only adds, so removing a verb on a resource from
 * every role is refusing it to everyone. Written `k8s:<verb>:<resource>`, the resource as
 * `kubectl auth can-i` takes it — `nodes`, `pods/eviction`, `nodeclaims.karpenter.sh` — a
 * resource without a group meaning it in any group.
 */
import type { RequestInfo } from '../api-server/request-info.ts';

export const KUBERNETES_PREFIX = 'k8s:';

interface RemovedPermission {
  readonly verb: string;
  readonly resource: string;
  readonly subresource: string;
  /** Any group when undefined. */
  readonly apiGroup: string | undefined;
}

export function isKubernetesPermission(entry: string): boolean {
  return entry.startsWith(KUBERNETES_PREFIX);
}

function parse(entry: string): RemovedPermission {
  const [verb = '', target = ''] = entry.slice(KUBERNETES_PREFIX.length).split(':');
  const [qualified = '', subresource = ''] = target.split('/');
  const dot = qualified.indexOf('.');
  if (verb === '' || qualified === '') {
    throw new Error(`${entry}: write a Kubernetes permission as k8s:<verb>:<resource>`);
  }
  return {
    verb,
    resource: dot < 0 ? qualified : qualified.slice(0, dot),
    subresource,
    apiGroup: dot < 0 ? undefined : qualified.slice(dot + 1),
  };
}

/** Whether a request asks for a permission the run removed. */
export function removedPermissions(entries: readonly string[]): (request: RequestInfo) => boolean {
  const removed = entries.filter(isKubernetesPermission).map(parse);
  return (request) =>
    request.isResourceRequest &&
    removed.some(
      (p) =>
        (p.verb === '*' || p.verb === request.verb) &&
        p.resource === request.resource &&
        p.subresource === request.subresource &&
        (p.apiGroup === undefined || p.apiGroup === request.apiGroup),
    );
}
