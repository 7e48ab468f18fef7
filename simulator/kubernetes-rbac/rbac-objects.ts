/**
 * The four kinds of `rbac.authorization.k8s.io/v1` a cluster's RBAC is made of, read from the
 * YAML `kubectl apply -f` takes (deploy/rbac.yaml): Roles and ClusterRoles hold rules,
 * RoleBindings and ClusterRoleBindings grant a role to subjects. Other kinds are left out, as
 * they do not take part in authorization.
 */
import { parseAllDocuments } from 'yaml';
import type { PolicyRule } from './policy-rule.ts';

export interface Subject {
  /** `User`, `Group` or `ServiceAccount`. */
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly apiGroup?: string;
}

export interface RoleRef {
  readonly apiGroup: string;
  /** `Role` or `ClusterRole`. */
  readonly kind: string;
  readonly name: string;
}

interface Metadata {
  readonly name: string;
  readonly namespace?: string;
}

export interface RbacRole {
  readonly kind: 'Role' | 'ClusterRole';
  readonly metadata: Metadata;
  readonly rules?: readonly PolicyRule[];
}

export interface RbacBinding {
  readonly kind: 'RoleBinding' | 'ClusterRoleBinding';
  readonly metadata: Metadata;
  readonly roleRef: RoleRef;
  readonly subjects?: readonly Subject[];
}

export type RbacObject = RbacRole | RbacBinding;

const RBAC_API_VERSION = 'rbac.authorization.k8s.io/v1';
const KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

function isRbacObject(document: unknown): document is RbacObject & { apiVersion: string } {
  if (typeof document !== 'object' || document === null) return false;
  const { apiVersion, kind } = document as { apiVersion?: unknown; kind?: unknown };
  return apiVersion === RBAC_API_VERSION && typeof kind === 'string' && KINDS.has(kind);
}

/** The RBAC objects of a multi-document YAML text; a document YAML cannot read is thrown. */
export function parseRbacObjects(text: string): RbacObject[] {
  return parseAllDocuments(text).flatMap((document) => {
    if (document.errors.length > 0) throw document.errors[0];
    const value: unknown = document.toJS();
    return isRbacObject(value) ? [value] : [];
  });
}
