/**
 * An event already handled, remembered by its idempotency key (an EventBridge event id, an SQS
 * message id) for as long as duplicates of it can still arrive.
 */
export interface EventSeen {
  readonly key: string;
  /** ISO-8601 instant after which the key is forgotten and would count as new. */
  readonly expiresAt: string;
}
