/**
 * `--deny k8s:<verb>:<resource>`: Kubernetes permissions taken from every group for a run, the
 * resource written as `kubectl auth can-i` takes it.
 */
import { describe, expect, it } from 'vitest';
import { requestInfo } from '../../../simulator/api-server/request-info.ts';
import { removedPermissions } from '../../../simulator/kubernetes-rbac/removed-permissions.ts';

function request(method: string, path: string) {
  return requestInfo(method, path, new URLSearchParams());
}

describe('removed Kubernetes permissions', () => {
  it.each([
    ['k8s:patch:nodes', 'PATCH', '/api/v1/nodes/n1', true],
    ['k8s:patch:nodes', 'GET', '/api/v1/nodes/n1', false],
    ['k8s:patch:nodes', 'PATCH', '/api/v1/nodes/n1/status', false],
    ['k8s:*:nodes', 'DELETE', '/api/v1/nodes/n1', true],
    ['k8s:create:pods/eviction', 'POST', '/api/v1/namespaces/default/pods/web-1/eviction', true],
    ['k8s:create:pods/eviction', 'POST', '/api/v1/namespaces/default/pods', false],
    ['k8s:list:nodeclaims.karpenter.sh', 'GET', '/apis/karpenter.sh/v1/nodeclaims', true],
    ['k8s:list:nodeclaims.example.com', 'GET', '/apis/karpenter.sh/v1/nodeclaims', false],
    ['k8s:list:nodeclaims', 'GET', '/apis/karpenter.sh/v1/nodeclaims', true],
    ['ec2:CreateFleet', 'PATCH', '/api/v1/nodes/n1', false],
  ])('%s against %s %s', (entry, method, path, expected) => {
    // Act
    const removed = removedPermissions([entry])(request(method, path));
    // Assess
    expect(removed).toBe(expected);
  });

  it.each(['k8s:patch', 'k8s::nodes', 'k8s:'])(
    'refuses %s, which names no verb and resource',
    (entry) => {
      // Assess
      expect(() => removedPermissions([entry])).toThrow(
        'write a Kubernetes permission as k8s:<verb>:<resource>',
      );
    },
  );
});
