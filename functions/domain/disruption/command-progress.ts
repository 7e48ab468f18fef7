/**
 * How a voluntary command stands across passes (core: disruption/queue.go; docs/disruption.md,
 * "After the decision"): a decision is checked again after 15 s before anything is touched; a candidate with
 * replacements drains only once every replacement is Initialized, and gives up — untainted,
 * left as it was — when a replacement is gone or has not come up within ten minutes.
 */
import { NodeClaimPhase, type NodeClaimRecord } from '../state/node-claim-record.ts';

/** core: consolidation.go, commandValidationDelay. */
export const VALIDATION_DELAY_MS = 15_000;
/** core: queue.go clamps its wait to at least ten minutes. */
export const REPLACEMENT_TIMEOUT_MS = 10 * 60_000;

export type ReplacementProgress =
  | { readonly kind: 'Proceed' }
  | { readonly kind: 'Wait' }
  | { readonly kind: 'Abort'; readonly reason: string };

export function isValidating(claim: NodeClaimRecord): boolean {
  return claim.disruption?.stage === 'Validating' && claim.phase === NodeClaimPhase.initialized;
}

export function isReplacing(claim: NodeClaimRecord): boolean {
  return claim.disruption?.stage === 'Replacing' && claim.phase === NodeClaimPhase.initialized;
}

/** Whether a validating decision has waited long enough to be checked again. */
export function validationDue(claim: NodeClaimRecord, nowMs: number): boolean {
  const decided = claim.disruption?.decidedAt;
  return decided !== undefined && nowMs - Date.parse(decided) >= VALIDATION_DELAY_MS;
}

export function replacementProgress(
  claim: NodeClaimRecord,
  claims: ReadonlyMap<string, NodeClaimRecord>,
  nowMs: number,
): ReplacementProgress {
  const names = claim.disruption?.replacements ?? [];
  const missing = names.find((name) => !claims.has(name));
  if (missing !== undefined) return { kind: 'Abort', reason: `replacement ${missing} failed` };
  const ready = names.every((name) => claims.get(name)?.phase === NodeClaimPhase.initialized);
  if (ready) return { kind: 'Proceed' };
  const decided = Date.parse(claim.disruption?.decidedAt ?? '');
  if (nowMs - decided >= REPLACEMENT_TIMEOUT_MS) {
    return { kind: 'Abort', reason: 'replacements did not initialize within 10m' };
  }
  return { kind: 'Wait' };
}
