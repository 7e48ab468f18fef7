/**
 * Karpenter's `Unconsolidatable` messages, word for word, for the reasons a node stays that
 * Karpenter tells on the node (core: disruption/consolidation.go ShouldDisrupt and
 * computeConsolidation, emptiness.go ShouldDisrupt). Users alert on these strings, so they are
 * Karpenter's rather than Nodesmith's own staying reasons, which say more.
 */

/** A pod the removal simulation could not place, and why. */
export interface PodError {
  readonly pod: string;
  readonly error: string;
}

/** core: scheduling/scheduler.go NonPendingPodSchedulingErrors lists at most five. */
const MAX_POD_ERRORS = 5;

export function consolidationDisabled(nodePool: string): string {
  return `NodePool "${nodePool}" has consolidation disabled`;
}

export function whenEmptyButNotEmpty(nodePool: string): string {
  return `NodePool "${nodePool}" has consolidation policy WhenEmpty, but node is not empty`;
}

export const CANNOT_REPLACE_CHEAPER = "Can't replace with a cheaper node";

export function cannotRemoveWithout(newNodeClaims: number): string {
  return `Can't remove without creating ${newNodeClaims} candidates`;
}

export function spotToSpotTooFewTypes(minimum: number, cheaper: number): string {
  return `SpotToSpotConsolidation requires ${minimum} cheaper instance type options than the current candidate to consolidate, got ${cheaper}`;
}

/**
 * The scheduling errors as one sentence (pretty.Sentence of NonPendingPodSchedulingErrors). Each
 * entry ends with a space, as Karpenter writes it, so alerts matching its text match this one.
 */
export function notAllPodsWouldSchedule(errors: readonly PodError[]): string {
  if (errors.length === 0) return 'No Pod Scheduling Errors';
  const listed = errors
    .slice(0, MAX_POD_ERRORS)
    .map((e) => `${e.pod} => ${e.error} `)
    .join('');
  const more =
    errors.length > MAX_POD_ERRORS ? ` and ${errors.length - MAX_POD_ERRORS} other(s)` : '';
  return `Not all pods would schedule, ${listed}${more}`;
}
