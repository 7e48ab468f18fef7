/**
 * The RBAC authorizer over whole Roles, ClusterRoles and their bindings: the examples of
 * Kubernetes' RBAC documentation (kubernetes.io/docs/reference/access-authn-authz/rbac/) and the
 * cases of kubernetes/kubernetes plugin/pkg/auth/authorizer/rbac/rbac_test.go `TestAuthorizer`.
 */
import { describe, expect, it } from 'vitest';
import type { RequestAttributes } from '../../../simulator/api-server/request-attributes.ts';
import { RbacAuthorizer } from '../../../simulator/kubernetes-rbac/rbac-authorizer.ts';
import { parseRbacObjects } from '../../../simulator/kubernetes-rbac/rbac-objects.ts';
import { nonResourceRequest, resourceRequest, user } from './support.ts';

/** The documentation's examples, as one file `kubectl apply -f` would take. */
const DOCUMENTATION = `
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  namespace: default
  name: pod-reader
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "watch", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: read-pods
  namespace: default
subjects:
- kind: User
  name: jane
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: Role
  name: pod-reader
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: secret-reader
rules:
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get", "watch", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: read-secrets
  namespace: development
subjects:
- kind: User
  name: dave
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: secret-reader
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: read-secrets-global
subjects:
- kind: Group
  name: manager
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: secret-reader
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  namespace: default
  name: pod-and-pod-logs-reader
rules:
- apiGroups: [""]
  resources: ["pods", "pods/log"]
  verbs: ["get", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  namespace: default
  name: configmap-updater
rules:
- apiGroups: [""]
  resources: ["configmaps"]
  resourceNames: ["my-configmap"]
  verbs: ["update", "get"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: logs-and-config
  namespace: default
subjects:
- kind: ServiceAccount
  name: myapp
  namespace: default
- kind: Group
  name: "system:serviceaccounts:qa"
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: Role
  name: pod-and-pod-logs-reader
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: update-config
  namespace: default
subjects:
- kind: ServiceAccount
  name: myapp
roleRef:
  kind: Role
  name: configmap-updater
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: healthz-checker
rules:
- nonResourceURLs: ["/healthz", "/healthz/*"]
  verbs: ["get", "post"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: healthz-checkers
subjects:
- kind: Group
  name: system:authenticated
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: healthz-checker
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: not-rbac
`;

const documentation = new RbacAuthorizer(parseRbacObjects(DOCUMENTATION));

const jane = user('jane', 'system:authenticated');
const dave = user('dave', 'system:authenticated');
const managerBob = user('bob', 'manager', 'system:authenticated');
const myapp = user('system:serviceaccount:default:myapp', 'system:serviceaccounts');
const qaBot = user('system:serviceaccount:qa:bot', 'system:serviceaccounts:qa');

describe("the RBAC authorizer on the documentation's examples", () => {
  it.each<[string, RequestAttributes, boolean]>([
    [
      'jane reads pods in default',
      resourceRequest(jane, { verb: 'list', resource: 'pods', namespace: 'default' }),
      true,
    ],
    [
      'jane watches a pod in default',
      resourceRequest(jane, { verb: 'watch', resource: 'pods', namespace: 'default', name: 'web' }),
      true,
    ],
    [
      'jane may not delete pods',
      resourceRequest(jane, {
        verb: 'delete',
        resource: 'pods',
        namespace: 'default',
        name: 'web',
      }),
      false,
    ],
    [
      'a Role reaches only its own namespace',
      resourceRequest(jane, { verb: 'list', resource: 'pods', namespace: 'kube-system' }),
      false,
    ],
    [
      'a Role never reaches across namespaces',
      resourceRequest(jane, { verb: 'list', resource: 'pods' }),
      false,
    ],
    [
      'a RoleBinding to a ClusterRole grants it in its namespace',
      resourceRequest(dave, {
        verb: 'get',
        resource: 'secrets',
        namespace: 'development',
        name: 'db',
      }),
      true,
    ],
    [
      '… and nowhere else',
      resourceRequest(dave, { verb: 'get', resource: 'secrets', namespace: 'default', name: 'db' }),
      false,
    ],
    [
      'a ClusterRoleBinding grants its group every namespace',
      resourceRequest(managerBob, { verb: 'list', resource: 'secrets', namespace: 'kube-system' }),
      true,
    ],
    [
      '… and the cluster scope',
      resourceRequest(managerBob, { verb: 'list', resource: 'secrets' }),
      true,
    ],
    [
      'a subresource granted by name',
      resourceRequest(myapp, {
        verb: 'get',
        resource: 'pods',
        subresource: 'log',
        namespace: 'default',
        name: 'web',
      }),
      true,
    ],
    [
      'a subresource not granted',
      resourceRequest(myapp, {
        verb: 'create',
        resource: 'pods',
        subresource: 'exec',
        namespace: 'default',
        name: 'web',
      }),
      false,
    ],
    [
      'a ServiceAccount subject without a namespace takes the binding’s',
      resourceRequest(myapp, {
        verb: 'update',
        resource: 'configmaps',
        namespace: 'default',
        name: 'my-configmap',
      }),
      true,
    ],
    [
      'resourceNames leave other instances out',
      resourceRequest(myapp, {
        verb: 'update',
        resource: 'configmaps',
        namespace: 'default',
        name: 'other',
      }),
      false,
    ],
    [
      'resourceNames never allow a list',
      resourceRequest(myapp, { verb: 'list', resource: 'configmaps', namespace: 'default' }),
      false,
    ],
    [
      'a service accounts group of another namespace, in default',
      resourceRequest(qaBot, { verb: 'list', resource: 'pods', namespace: 'default' }),
      true,
    ],
    [
      'every authenticated user checks health',
      nonResourceRequest(jane, 'get', '/healthz/ready'),
      true,
    ],
    ['no one else reads other paths', nonResourceRequest(jane, 'get', '/metrics'), false],
  ])('%s', (_name, request, expected) => {
    // Act
    const decision = documentation.authorize(request);
    // Assess
    expect(decision.allowed).toBe(expected);
  });

  it('names the binding and role that allowed a request, and gives no reason for a denial', () => {
    // Act
    const allowed = documentation.authorize(
      resourceRequest(dave, {
        verb: 'get',
        resource: 'secrets',
        namespace: 'development',
        name: 'db',
      }),
    );
    const denied = documentation.authorize(
      resourceRequest(dave, { verb: 'get', resource: 'secrets', namespace: 'default', name: 'db' }),
    );
    // Assess
    expect(allowed).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by RoleBinding "development/read-secrets" of ClusterRole "secret-reader"',
    });
    expect(denied).toEqual({ allowed: false, reason: '' });
  });
});

/** rbac_test.go's bindings: `newRoleBinding("ns1", "admin", bindToClusterRole, "User:admin", "Group:admins")`. */
function upstreamCase(rule: string): RbacAuthorizer {
  return new RbacAuthorizer(
    parseRbacObjects(`
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: admin}
rules: [${rule}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: admin, namespace: ns1}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: admin}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: admin}
- {apiGroup: rbac.authorization.k8s.io, kind: Group, name: admins}
`),
  );
}

describe("the RBAC authorizer on Kubernetes' own cases", () => {
  const everything = upstreamCase(
    `{verbs: ['*'], apiGroups: ['*'], resources: ['*'], nonResourceURLs: ['*']}`,
  );

  it.each<[string, RequestAttributes, boolean]>([
    [
      'the user bound in ns1',
      resourceRequest(user('admin'), { verb: 'get', resource: 'Pods', namespace: 'ns1' }),
      true,
    ],
    [
      'the user, whatever its groups',
      resourceRequest(user('admin', 'group1'), {
        verb: 'watch',
        resource: 'Foobar',
        namespace: 'ns1',
      }),
      true,
    ],
    [
      'a member of the bound group',
      resourceRequest(user('joe', 'admins'), {
        verb: 'watch',
        resource: 'Foobar',
        namespace: 'ns1',
      }),
      true,
    ],
    [
      '… among other groups',
      resourceRequest(user('joe', 'group1', 'admins'), {
        verb: 'watch',
        resource: 'Foobar',
        namespace: 'ns1',
      }),
      true,
    ],
    [
      'another namespace',
      resourceRequest(user('admin'), { verb: 'GET', resource: 'Pods', namespace: 'ns2' }),
      false,
    ],
    [
      'the cluster scope',
      resourceRequest(user('admin', 'admins'), { verb: 'GET', resource: 'Nodes' }),
      false,
    ],
  ])('%s', (_name, request, expected) => {
    // Assess
    expect(everything.authorize(request).allowed).toBe(expected);
  });

  it.each<[string, string, RequestAttributes, boolean]>([
    [
      'pods does not grant pods/status',
      `{verbs: ['*'], apiGroups: ['*'], resources: [pods]}`,
      resourceRequest(user('admin'), {
        verb: 'get',
        resource: 'pods',
        subresource: 'status',
        namespace: 'ns1',
      }),
      false,
    ],
    [
      'pods/status grants pods/status',
      `{verbs: ['*'], apiGroups: ['*'], resources: [pods/status]}`,
      resourceRequest(user('admin'), {
        verb: 'get',
        resource: 'pods',
        subresource: 'status',
        namespace: 'ns1',
      }),
      true,
    ],
    [
      'pods/status does not grant pods',
      `{verbs: ['*'], apiGroups: ['*'], resources: [pods/status]}`,
      resourceRequest(user('admin'), { verb: 'get', resource: 'pods', namespace: 'ns1' }),
      false,
    ],
  ])('subresources: %s', (_name, rule, request, expected) => {
    // Assess
    expect(upstreamCase(rule).authorize(request).allowed).toBe(expected);
  });

  it('grants non-resource URLs only through ClusterRoleBindings, by verb and path', () => {
    // Prepare
    const authorizer = new RbacAuthorizer(
      parseRbacObjects(`
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: non-resource-url-getter}
rules: [{verbs: [get], nonResourceURLs: [/apis]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: non-resource-url-prefix}
rules: [{verbs: [get], nonResourceURLs: ['/apis/*']}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: getter}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: non-resource-url-getter}
subjects: [{kind: User, name: foo}, {kind: Group, name: bar}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: prefixed}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: non-resource-url-prefix}
subjects: [{kind: User, name: prefixed}]
`),
    );
    const allowed = (name: string, groups: string[], verb: string, path: string) =>
      authorizer.authorize(nonResourceRequest(user(name, ...groups), verb, path)).allowed;
    // Assess
    expect(allowed('foo', [], 'get', '/apis')).toBe(true);
    expect(allowed('', ['bar'], 'get', '/apis')).toBe(true);
    expect(allowed('foo', [], 'watch', '/apis')).toBe(false);
    expect(allowed('foo', [], 'get', '/api/v1')).toBe(false);
    expect(allowed('prefixed', [], 'get', '/apis/v1/foobar')).toBe(true);
    expect(allowed('prefixed', [], 'get', '/api/v1')).toBe(false);
  });

  it('names a bound role that does not exist as the reason for a denial', () => {
    // Prepare
    const authorizer = new RbacAuthorizer(
      parseRbacObjects(`
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: nodesmith}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: nodesmith}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: 'nodesmith:controller'}]
`),
    );
    // Act
    const decision = authorizer.authorize(
      resourceRequest(user('controller', 'nodesmith:controller'), {
        verb: 'list',
        resource: 'nodes',
      }),
    );
    // Assess
    expect(decision).toEqual({
      allowed: false,
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "nodesmith" not found',
    });
  });
});
