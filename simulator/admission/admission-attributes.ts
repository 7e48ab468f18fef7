/**
 * One request as kube-apiserver's admission chain sees it (k8s.io/apiserver admission.Attributes),
 * and the `admission.k8s.io/v1` AdmissionReview a webhook is sent for it
 * (k8s.io/api/admission/v1/types.go).
 */
import type { JsonObject } from '../api-server/json.ts';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  readonly operation: Operation;
  readonly group: string;
  readonly version: string;
  /** The plural resource: `pods`, `nodes`. */
  readonly resource: string;
  /** `status`, `binding`…; absent for the object itself. */
  readonly subResource?: string;
  readonly kind: string;
  /** Absent for a cluster-scoped resource. */
  readonly namespace?: string;
  readonly name: string;
  /** Null on DELETE. */
  readonly object: JsonObject | null;
  /** Null on CREATE. */
  readonly oldObject: JsonObject | null;
  readonly userInfo: { readonly username: string; readonly groups: readonly string[] };
}

const OPTIONS: Readonly<Record<Operation, string>> = {
  CREATE: 'CreateOptions',
  UPDATE: 'UpdateOptions',
  DELETE: 'DeleteOptions',
  CONNECT: 'ConnectOptions',
};

/** The review for one webhook call; `uid` is the call's own. */
export function admissionReview(attributes: AdmissionAttributes, uid: string): JsonObject {
  const { group, version, resource, subResource, kind, namespace, name, operation } = attributes;
  const groupVersionKind = { group, version, kind };
  const groupVersionResource = { group, version, resource };
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: groupVersionKind,
      resource: groupVersionResource,
      ...(subResource === undefined ? {} : { subResource, requestSubResource: subResource }),
      requestKind: groupVersionKind,
      requestResource: groupVersionResource,
      name,
      ...(namespace === undefined ? {} : { namespace }),
      operation,
      userInfo: { username: attributes.userInfo.username, groups: [...attributes.userInfo.groups] },
      object: attributes.object,
      oldObject: attributes.oldObject,
      dryRun: false,
      options: { apiVersion: 'meta.k8s.io/v1', kind: OPTIONS[operation] },
    },
  };
}
