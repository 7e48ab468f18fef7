/** Who made a request and what it asks, as authorization decides on it. */
import type { RequestInfo } from './request-info.ts';

/** Who a request authenticated as (k8s.io/apiserver `user.Info`). */
export interface UserInfo {
  readonly name: string;
  readonly groups: readonly string[];
  /** What the authenticator adds, as EKS adds the caller's ARN and session name. */
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** The request and its user (`authorizer.Attributes`). */
export interface RequestAttributes extends RequestInfo {
  readonly user: UserInfo;
}
