/** How long each lifecycle step may take (core: nodeclaim/lifecycle/liveness.go; docs/controller.md). */

/** A claim written but not launched, left by a pass that stopped, is retried for this long. */
export const LAUNCH_TTL_MS = 5 * 60_000;
/** A launched instance whose node never joins is terminated after this. */
export const REGISTRATION_TTL_MS = 15 * 60_000;
/**
 * An instance with the cluster's tags and no claim is left alone this long: the claim of a launch
 * in progress may not be visible yet (aws garbagecollection/controller.go).
 */
export const ORPHAN_GRACE_MS = 30_000;
/**
 * A launched claim whose instance the cloud no longer lists is removed after this: EC2's
 * DescribeInstances may not show an instance for a few seconds after CreateFleet returns.
 */
export const INSTANCE_GONE_GRACE_MS = 30_000;

/** Whether more than `ttlMs` has passed since the ISO instant `since`. */
export function elapsed(since: string | undefined, now: Date, ttlMs: number): boolean {
  return since !== undefined && now.getTime() - Date.parse(since) > ttlMs;
}
