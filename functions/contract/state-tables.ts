/**
 * The keys of the two state tables, which the stack declares and the DynamoDB adapter reads and
 * writes by (docs/state.md): NodeClaims by name, with an index by instance id; everything else by
 * partition and sort key, expiring at its TTL attribute.
 */
export const CLAIM_NAME = 'name';
export const INSTANCE_ID = 'instanceId';
export const INSTANCE_ID_INDEX = 'byInstanceId';
export const STATE_PK = 'pk';
export const STATE_SK = 'sk';
export const STATE_TTL = 'ttl';
/**
 * The partition of the admission wake's window: the only one the relay may write, which its IAM
 * policy names (`dynamodb:LeadingKeys`).
 */
export const WAKE_WINDOW_PARTITION = 'WakeWindow';
