/**
 * An `audit.k8s.io/v1` Event as the relay reads it: what was done to which object, whether it
 * succeeded, and the request body where the policy logs one (docs/audit-relay.md).
 */
export interface AuditObjectRef {
  readonly resource?: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
}

export interface AuditEvent {
  readonly verb: string;
  /** `RequestReceived`, `ResponseStarted`, `ResponseComplete` or `Panic`. */
  readonly stage: string;
  readonly objectRef?: AuditObjectRef;
  /** The HTTP status of the request, when the stage has one. */
  readonly code?: number;
  /** The object or patch as sent (Request level and above). */
  readonly requestObject?: unknown;
  /** The object as stored (RequestResponse level). */
  readonly responseObject?: unknown;
}
