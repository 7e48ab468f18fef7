/**
 * The words of a 403, as kube-apiserver writes them (kubernetes/kubernetes,
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go
 * `forbiddenMessage`): the user, the verb and the resource with its subresource, its API group,
 * and the namespace or the cluster scope; a non-resource request names its path.
 */
import type { RequestAttributes } from './request-attributes.ts';

export function forbiddenMessage(attributes: RequestAttributes): string {
  const user = JSON.stringify(attributes.user.name);
  const { verb } = attributes;
  if (!attributes.isResourceRequest) {
    return `User ${user} cannot ${verb} path ${JSON.stringify(attributes.path)}`;
  }
  const resource =
    attributes.subresource === ''
      ? attributes.resource
      : `${attributes.resource}/${attributes.subresource}`;
  const what = `resource ${JSON.stringify(resource)} in API group ${JSON.stringify(attributes.apiGroup)}`;
  const scope =
    attributes.namespace === ''
      ? 'at the cluster scope'
      : `in the namespace ${JSON.stringify(attributes.namespace)}`;
  return `User ${user} cannot ${verb} ${what} ${scope}`;
}
