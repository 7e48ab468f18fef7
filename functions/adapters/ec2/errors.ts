/**
 * EC2, SSM, Pricing and IAM error codes sorted into the port errors (docs/design.md §2.3), as
 * Karpenter sorts them (aws: pkg/errors/errors.go). The sets are the one place a code is
 * classified; callers branch on the port error's class, never on a code or a message.
 */
import { InvalidConfigError, ThrottledError } from '../../ports/errors.ts';

/**
 * Fleet errors meaning "this offering cannot be filled right now": the offering is marked
 * unavailable and the claim re-planned on what remains.
 */
export const CAPACITY_ERROR_CODES: ReadonlySet<string> = new Set([
  'InsufficientInstanceCapacity',
  'MaxSpotInstanceCountExceeded',
  'VcpuLimitExceeded',
  'UnfulfillableCapacity',
  'Unsupported',
  'InsufficientFreeAddressesInSubnet',
  'MaxFleetCountExceeded',
  'ReservationCapacityExceeded',
]);

/** The service refused for rate after the SDK's own retries. */
export const THROTTLING_ERROR_CODES: ReadonlySet<string> = new Set([
  'RequestLimitExceeded',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
]);

/** The addressed thing does not exist (or no longer does). */
export const NOT_FOUND_ERROR_CODES: ReadonlySet<string> = new Set([
  'InvalidInstanceID.NotFound',
  'InvalidLaunchTemplateName.NotFoundException',
  'InvalidLaunchTemplateId.NotFound',
  'ParameterNotFound',
  'InvalidCapacityReservationId.NotFound',
]);

/** A launch template named in a request is gone: recreate it and try once more. */
export const LAUNCH_TEMPLATE_NOT_FOUND_CODES: ReadonlySet<string> = new Set([
  'InvalidLaunchTemplateName.NotFoundException',
  'InvalidLaunchTemplateId.NotFound',
]);

/** Another launch created the same template first: it can be used as it is. */
export const LAUNCH_TEMPLATE_EXISTS_CODE = 'InvalidLaunchTemplateName.AlreadyExistsException';

/*
 * IAM speaks a query protocol: the SDK puts the wire code (`NoSuchEntity`) in `Code`, which
 * `awsErrorCode` prefers, and the modeled exception's name (`NoSuchEntityException`) in `name`.
 * Both spellings are listed so that the classification does not hang on which one is read.
 */

/** IAM has no entity (instance profile, role) by that name. */
export const IAM_NOT_FOUND_CODES: ReadonlySet<string> = new Set([
  'NoSuchEntity',
  'NoSuchEntityException',
]);

/** Another caller created the same IAM entity first. */
export const IAM_ALREADY_EXISTS_CODES: ReadonlySet<string> = new Set([
  'EntityAlreadyExists',
  'EntityAlreadyExistsException',
]);

/** From AddRoleToInstanceProfile: the profile already holds its one role. */
export const IAM_LIMIT_EXCEEDED_CODES: ReadonlySet<string> = new Set([
  'LimitExceeded',
  'LimitExceededException',
]);

/** The caller's identity lacks a permission: a deployment mistake, not a transient failure. */
export const ACCESS_DENIED_CODES: ReadonlySet<string> = new Set([
  'AccessDenied',
  'AccessDeniedException',
]);

/** The AWS error code of an SDK error (its `name`, or `Code` for query protocols), if any. */
export function awsErrorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { name, Code } = err as { name?: unknown; Code?: unknown };
  if (typeof Code === 'string' && Code !== '') return Code;
  return typeof name === 'string' && name !== '' && name !== 'Error' ? name : undefined;
}

function hasCode(err: unknown, codes: ReadonlySet<string>): boolean {
  const code = awsErrorCode(err);
  return code !== undefined && codes.has(code);
}

export function isNotFound(err: unknown): boolean {
  return hasCode(err, NOT_FOUND_ERROR_CODES);
}

export function isLaunchTemplateNotFound(err: unknown): boolean {
  return hasCode(err, LAUNCH_TEMPLATE_NOT_FOUND_CODES);
}

export function isThrottled(err: unknown): boolean {
  return hasCode(err, THROTTLING_ERROR_CODES);
}

export function isIamNotFound(err: unknown): boolean {
  return hasCode(err, IAM_NOT_FOUND_CODES);
}

export function isIamAlreadyExists(err: unknown): boolean {
  return hasCode(err, IAM_ALREADY_EXISTS_CODES);
}

export function isIamLimitExceeded(err: unknown): boolean {
  return hasCode(err, IAM_LIMIT_EXCEEDED_CODES);
}

/** The port error `err` stands for, or `err` itself, so that every other failure keeps its cause. */
export function toPortError(err: unknown, doing: string): unknown {
  if (isThrottled(err)) {
    return new ThrottledError(`${doing}: throttled (${awsErrorCode(err)})`, { cause: err });
  }
  return err;
}

/** One IAM call at the edge: what was being done, and the permissions it needs. */
export interface IamEdge {
  /** Lowercase, names the thing addressed: `creating instance profile prod_123`. */
  readonly doing: string;
  /** Named when access is denied: `iam:CreateInstanceProfile`. */
  readonly permission: string;
}

/** As `toPortError`, and a denied permission becomes InvalidConfigError naming what to grant. */
export function toIamPortError(err: unknown, edge: IamEdge): unknown {
  if (hasCode(err, ACCESS_DENIED_CODES)) {
    const detail = `access denied; grant ${edge.permission} to the function's role (${awsErrorCode(err)})`;
    return new InvalidConfigError(`${edge.doing}: ${detail}`, { cause: err });
  }
  return toPortError(err, edge.doing);
}
