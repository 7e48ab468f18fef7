/** Requests as the RBAC authorizer sees them, written in a line each. */
import type {
  RequestAttributes,
  UserInfo,
} from '../../../simulator/api-server/request-attributes.ts';

export interface ResourceRequest {
  readonly verb: string;
  readonly resource: string;
  readonly apiGroup?: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
}

export function user(name: string, ...groups: string[]): UserInfo {
  return { name, groups };
}

export function resourceRequest(who: UserInfo, request: ResourceRequest): RequestAttributes {
  return {
    user: who,
    isResourceRequest: true,
    path: '',
    apiGroup: '',
    apiVersion: 'v1',
    namespace: '',
    subresource: '',
    name: '',
    ...request,
  };
}

export function nonResourceRequest(who: UserInfo, verb: string, path: string): RequestAttributes {
  return {
    user: who,
    isResourceRequest: false,
    path,
    verb,
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
  };
}
