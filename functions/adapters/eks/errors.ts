/**
 * EKS and Secrets Manager failures sorted into port errors at the edge (docs/design.md §2.3),
 * always keeping the SDK error as `cause`. A missing permission is a deployment mistake, so it
 * becomes InvalidConfigError naming the IAM action to grant; anything unclassified is returned
 * unchanged.
 */
import { InvalidConfigError, NotFoundError, ThrottledError } from '../../ports/errors.ts';

const NOT_FOUND_CODES: ReadonlySet<string> = new Set(['ResourceNotFoundException']);
const ACCESS_DENIED_CODES: ReadonlySet<string> = new Set(['AccessDeniedException', 'AccessDenied']);
/** Secrets Manager could not use the secret's KMS key with the caller's identity. */
const DECRYPTION_CODES: ReadonlySet<string> = new Set(['DecryptionFailure']);
const THROTTLING_CODES: ReadonlySet<string> = new Set([
  'ThrottlingException',
  'Throttling',
  'TooManyRequestsException',
  'RequestLimitExceeded',
]);

/** One call at the edge: what was being done, and the IAM action it needs. */
export interface Edge {
  /** Lowercase, names the thing addressed: `describing eks cluster prod`. */
  readonly doing: string;
  /** Named when access is denied: `eks:DescribeCluster`. */
  readonly permission: string;
}

/** The AWS error code of an SDK error (its `name`, or `Code` for query protocols), if any. */
export function awsErrorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { name, Code } = err as { name?: unknown; Code?: unknown };
  if (typeof Code === 'string' && Code !== '') return Code;
  return typeof name === 'string' && name !== '' && name !== 'Error' ? name : undefined;
}

/** The port error `err` stands for, or `err` itself, so that every other failure keeps its cause. */
export function toPortError(err: unknown, edge: Edge): unknown {
  const code = awsErrorCode(err);
  if (code === undefined) return err;
  const { doing, permission } = edge;
  if (NOT_FOUND_CODES.has(code)) {
    return new NotFoundError(`${doing}: it does not exist (${code})`, { cause: err });
  }
  if (ACCESS_DENIED_CODES.has(code)) {
    const detail = `access denied; grant ${permission} to the function's role (${code})`;
    return new InvalidConfigError(`${doing}: ${detail}`, { cause: err });
  }
  if (DECRYPTION_CODES.has(code)) {
    const detail = `the secret's kms key refused; grant kms:Decrypt on it to the function's role (${code})`;
    return new InvalidConfigError(`${doing}: ${detail}`, { cause: err });
  }
  if (THROTTLING_CODES.has(code)) {
    return new ThrottledError(`${doing}: throttled (${code})`, { cause: err });
  }
  return err;
}
