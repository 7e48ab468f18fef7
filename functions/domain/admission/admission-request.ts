/**
 * An `admission.k8s.io/v1` AdmissionRequest as the relay reads it: which operation on which
 * resource, and the object before and after (docs/audit-relay.md, "The admission wake").
 */
export interface AdmissionRequest {
  /** Echoed in the response, which the API server matches to its request. */
  readonly uid: string;
  /** `CREATE`, `UPDATE`, `DELETE` or `CONNECT`. */
  readonly operation: string;
  /** The resource's plural name: `pods`, `nodes`. */
  readonly resource: string;
  /** `status` for a `pods/status` update; absent for the object itself. */
  readonly subResource?: string;
  /** The object as it will be stored; null on DELETE. */
  readonly object?: unknown;
  /** The object as it was; null on CREATE. */
  readonly oldObject?: unknown;
}
