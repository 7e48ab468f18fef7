/**
 * A request's authorization attributes from its method, path and query, as kube-apiserver's
 * RequestInfoFactory works them out (kubernetes/kubernetes, staging/src/k8s.io/apiserver/pkg/
 * endpoints/request/requestinfo_test.go `TestGetAPIRequestInfo`).
 */
import { describe, expect, it } from 'vitest';
import { type RequestInfo, requestInfo } from '../../../simulator/api-server/request-info.ts';

type Expected = Partial<RequestInfo>;

describe('request attributes', () => {
  it.each<[string, string, Expected]>([
    [
      'GET',
      '/api/v1/namespaces',
      {
        verb: 'list',
        apiGroup: '',
        apiVersion: 'v1',
        namespace: '',
        resource: 'namespaces',
        name: '',
      },
    ],
    [
      'GET',
      '/api/v1/namespaces/other',
      { verb: 'get', namespace: 'other', resource: 'namespaces', name: 'other' },
    ],
    [
      'GET',
      '/api/v1/namespaces/other/pods',
      { verb: 'list', namespace: 'other', resource: 'pods', name: '' },
    ],
    [
      'GET',
      '/api/v1/namespaces/other/pods/foo',
      { verb: 'get', namespace: 'other', resource: 'pods', name: 'foo' },
    ],
    ['HEAD', '/api/v1/namespaces/other/pods/foo', { verb: 'get', resource: 'pods', name: 'foo' }],
    ['GET', '/api/v1/pods', { verb: 'list', namespace: '', resource: 'pods' }],
    ['GET', '/api/v1/namespaces/other/pods?watch=true', { verb: 'watch', resource: 'pods' }],
    ['GET', '/api/v1/namespaces/other/pods?watch=false', { verb: 'list', resource: 'pods' }],
    ['GET', '/api/v1/namespaces/other/pods?watch=0', { verb: 'list', resource: 'pods' }],
    ['GET', '/api/v1/watch/pods', { verb: 'watch', namespace: '', resource: 'pods' }],
    [
      'GET',
      '/api/v1/watch/namespaces/other/pods',
      { verb: 'watch', namespace: 'other', resource: 'pods' },
    ],
    [
      'GET',
      '/api/v1/nodes?fieldSelector=metadata.name%3Dn1',
      { verb: 'list', resource: 'nodes', name: 'n1' },
    ],
    [
      'GET',
      '/api/v1/nodes?fieldSelector=spec.unschedulable%3Dfalse%2Cmetadata.name%3D%3Dn1',
      { verb: 'list', resource: 'nodes', name: 'n1' },
    ],
    [
      'GET',
      '/api/v1/nodes?fieldSelector=metadata.name!%3Dn1',
      { verb: 'list', resource: 'nodes', name: '' },
    ],
    [
      'POST',
      '/api/v1/namespaces/other/pods',
      { verb: 'create', namespace: 'other', resource: 'pods' },
    ],
    [
      'POST',
      '/api/v1/namespaces/default/pods/web-1/eviction',
      {
        verb: 'create',
        namespace: 'default',
        resource: 'pods',
        name: 'web-1',
        subresource: 'eviction',
      },
    ],
    [
      'PUT',
      '/api/v1/namespaces/other/finalize',
      {
        verb: 'update',
        namespace: 'other',
        resource: 'namespaces',
        name: 'other',
        subresource: 'finalize',
      },
    ],
    [
      'PUT',
      '/api/v1/namespaces/other/status',
      { verb: 'update', resource: 'namespaces', name: 'other', subresource: 'status' },
    ],
    [
      'PATCH',
      '/api/v1/nodes/n1/status',
      { verb: 'patch', namespace: '', resource: 'nodes', name: 'n1', subresource: 'status' },
    ],
    [
      'DELETE',
      '/api/v1/namespaces/other/pods/foo',
      { verb: 'delete', resource: 'pods', name: 'foo' },
    ],
    ['DELETE', '/api/v1/namespaces/other/pods', { verb: 'deletecollection', resource: 'pods' }],
    [
      'GET',
      '/apis/apps/v1/namespaces/kube-system/daemonsets',
      {
        verb: 'list',
        apiGroup: 'apps',
        apiVersion: 'v1',
        namespace: 'kube-system',
        resource: 'daemonsets',
      },
    ],
    [
      'PATCH',
      '/apis/karpenter.sh/v1/nodeclaims/default-x7k2p',
      { verb: 'patch', apiGroup: 'karpenter.sh', resource: 'nodeclaims', name: 'default-x7k2p' },
    ],
  ])('%s %s', (method, target, expected) => {
    // Prepare
    const url = new URL(target, 'https://127.0.0.1');
    // Act
    const info = requestInfo(method, url.pathname, url.searchParams);
    // Assess
    expect(info).toMatchObject({ isResourceRequest: true, ...expected });
  });

  it.each([
    ['GET', '/healthz', 'get'],
    ['GET', '/api', 'get'],
    ['GET', '/api/v1', 'get'],
    ['GET', '/apis/apps/v1', 'get'],
    ['POST', '/version', 'post'],
  ])('%s %s is a non-resource request', (method, path, verb) => {
    // Act
    const info = requestInfo(method, path, new URLSearchParams());
    // Assess
    expect(info).toMatchObject({ isResourceRequest: false, path, verb, resource: '' });
  });
});
