/** Requests as the RBAC authorizer sees them, written in a line each. */
import type {
  RequestAttributes,
  UserInfo,
} from '../../../simulator/api-server/request-attributes.ts';
import { requestInfo } from '../../../simulator/api-server/request-info.ts';

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

/** A request outside the API's resource paths, its verb given as the method. */
export function nonResourceRequest(who: UserInfo, verb: string, path: string): RequestAttributes {
  const info = requestInfo(verb, path, new URLSearchParams());
  if (info.isResourceRequest) throw new Error(`${path} is a resource path`);
  return { user: who, ...info };
}
