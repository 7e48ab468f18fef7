/**
 * One rule against one request, as Kubernetes' RBAC authorizer matches them: the cases of
 * kubernetes/kubernetes plugin/pkg/auth/authorizer/rbac/rbac_test.go `TestRuleMatches`, and the
 * `*\/subresource`, `resourceNames` and non-resource prefix forms of
 * pkg/apis/rbac/v1/evaluation_helpers.go.
 */
import { describe, expect, it } from 'vitest';
import { type PolicyRule, ruleAllows } from '../../../simulator/kubernetes-rbac/policy-rule.ts';
import { nonResourceRequest, type ResourceRequest, resourceRequest, user } from './support.ts';

const anyone = user('jane');

function allows(rule: PolicyRule, request: ResourceRequest): boolean {
  return ruleAllows(rule, resourceRequest(anyone, request));
}

describe('a policy rule', () => {
  it.each<[string, PolicyRule, ResourceRequest, boolean]>([
    // star verb, exact match other
    [
      '* verb',
      { verbs: ['*'], apiGroups: ['group1'], resources: ['resource1'] },
      { verb: 'verb2', apiGroup: 'group1', resource: 'resource1' },
      true,
    ],
    [
      '* verb, another group',
      { verbs: ['*'], apiGroups: ['group1'], resources: ['resource1'] },
      { verb: 'verb1', apiGroup: 'group2', resource: 'resource1' },
      false,
    ],
    [
      '* verb, another resource',
      { verbs: ['*'], apiGroups: ['group1'], resources: ['resource1'] },
      { verb: 'verb1', apiGroup: 'group1', resource: 'resource2' },
      false,
    ],
    // star group, exact match other
    [
      '* group',
      { verbs: ['verb1'], apiGroups: ['*'], resources: ['resource1'] },
      { verb: 'verb1', apiGroup: 'group2', resource: 'resource1' },
      true,
    ],
    [
      '* group, another verb',
      { verbs: ['verb1'], apiGroups: ['*'], resources: ['resource1'] },
      { verb: 'verb2', apiGroup: 'group1', resource: 'resource1' },
      false,
    ],
    // star resource, exact match other
    [
      '* resource',
      { verbs: ['verb1'], apiGroups: ['group1'], resources: ['*'] },
      { verb: 'verb1', apiGroup: 'group1', resource: 'resource2' },
      true,
    ],
    [
      '* resource, another group',
      { verbs: ['verb1'], apiGroups: ['group1'], resources: ['*'] },
      { verb: 'verb1', apiGroup: 'group2', resource: 'resource2' },
      false,
    ],
    // tuple expansion
    [
      'each verb × group × resource of the rule',
      {
        verbs: ['verb1', 'verb2'],
        apiGroups: ['group1', 'group2'],
        resources: ['resource1', 'resource2'],
      },
      { verb: 'verb2', apiGroup: 'group2', resource: 'resource1' },
      true,
    ],
    // subresource expansion
    [
      'resource/subresource',
      { verbs: ['*'], apiGroups: ['*'], resources: ['resource1/subresource1'] },
      { verb: 'verb1', apiGroup: 'group1', resource: 'resource1', subresource: 'subresource1' },
      true,
    ],
    [
      'resource/subresource, another subresource',
      { verbs: ['*'], apiGroups: ['*'], resources: ['resource1/subresource1'] },
      { verb: 'verb1', apiGroup: 'group2', resource: 'resource1', subresource: 'subresource2' },
      false,
    ],
    [
      'resource/subresource, another resource',
      { verbs: ['*'], apiGroups: ['*'], resources: ['resource1/subresource1'] },
      { verb: 'verb1', apiGroup: 'group1', resource: 'resource2', subresource: 'subresource1' },
      false,
    ],
    [
      'resource/subresource, the resource itself',
      { verbs: ['*'], apiGroups: ['*'], resources: ['pods/status'] },
      { verb: 'get', resource: 'pods' },
      false,
    ],
    [
      'a resource alone, its subresource',
      { verbs: ['*'], apiGroups: ['*'], resources: ['pods'] },
      { verb: 'get', resource: 'pods', subresource: 'status' },
      false,
    ],
    [
      '*/subresource',
      { verbs: ['create'], apiGroups: [''], resources: ['*/eviction'] },
      { verb: 'create', resource: 'pods', subresource: 'eviction' },
      true,
    ],
    [
      '*/subresource, the resource itself',
      { verbs: ['create'], apiGroups: [''], resources: ['*/eviction'] },
      { verb: 'create', resource: 'pods' },
      false,
    ],
    [
      '*/subresource, another subresource',
      { verbs: ['create'], apiGroups: [''], resources: ['*/eviction'] },
      { verb: 'create', resource: 'pods', subresource: 'binding' },
      false,
    ],
    // resource names
    [
      'a named instance',
      {
        verbs: ['get'],
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: ['my-configmap'],
      },
      { verb: 'get', resource: 'configmaps', namespace: 'default', name: 'my-configmap' },
      true,
    ],
    [
      'another instance',
      {
        verbs: ['get'],
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: ['my-configmap'],
      },
      { verb: 'get', resource: 'configmaps', namespace: 'default', name: 'other' },
      false,
    ],
    [
      'a request without a name, against names',
      {
        verbs: ['list'],
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: ['my-configmap'],
      },
      { verb: 'list', resource: 'configmaps', namespace: 'default' },
      false,
    ],
    [
      'the core group is the empty string',
      { verbs: ['list'], apiGroups: [''], resources: ['nodes'] },
      { verb: 'list', apiGroup: 'apps', resource: 'nodes' },
      false,
    ],
    [
      'a rule of non-resource URLs only',
      { verbs: ['get'], nonResourceURLs: ['/healthz'] },
      { verb: 'get', resource: 'pods' },
      false,
    ],
  ])('%s', (_name, rule, request, expected) => {
    // Act
    const allowed = allows(rule, request);
    // Assess
    expect(allowed).toBe(expected);
  });

  it.each<[string, PolicyRule, string, string, boolean]>([
    // star nonresource, exact match other
    ['*', { verbs: ['verb1'], nonResourceURLs: ['*'] }, 'verb1', '/foo/bar/one', true],
    ['*, another verb', { verbs: ['verb1'], nonResourceURLs: ['*'] }, 'verb2', '/foo', false],
    // star nonresource subpath
    [
      '/foo/*, /foo itself',
      { verbs: ['verb1'], nonResourceURLs: ['/foo/*'] },
      'verb1',
      '/foo',
      false,
    ],
    [
      '/foo/*, under it',
      { verbs: ['verb1'], nonResourceURLs: ['/foo/*'] },
      'verb1',
      '/foo/baz/one',
      true,
    ],
    [
      '/foo/*, beside it',
      { verbs: ['verb1'], nonResourceURLs: ['/foo/*'] },
      'verb1',
      '/foobar',
      false,
    ],
    [
      '/foo*, beside it',
      { verbs: ['verb1'], nonResourceURLs: ['/foo*'] },
      'verb1',
      '/foobar',
      true,
    ],
    // the documentation's /healthz rule
    [
      '/healthz',
      { verbs: ['get', 'post'], nonResourceURLs: ['/healthz', '/healthz/*'] },
      'post',
      '/healthz',
      true,
    ],
    [
      '/healthz/*',
      { verbs: ['get', 'post'], nonResourceURLs: ['/healthz', '/healthz/*'] },
      'get',
      '/healthz/etcd',
      true,
    ],
    [
      '/healthz, another verb',
      { verbs: ['get', 'post'], nonResourceURLs: ['/healthz', '/healthz/*'] },
      'delete',
      '/healthz',
      false,
    ],
    [
      'a rule of resources only',
      { verbs: ['get'], apiGroups: ['*'], resources: ['*'] },
      'get',
      '/healthz',
      false,
    ],
  ])('non-resource %s', (_name, rule, verb, path, expected) => {
    // Act
    const allowed = ruleAllows(rule, nonResourceRequest(anyone, verb, path));
    // Assess
    expect(allowed).toBe(expected);
  });
});
