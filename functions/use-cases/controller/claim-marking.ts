/**
 * Marking a claim for deletion in a pass (docs/design.md §3.7, §3.8): the claim written
 * `Disrupting` with its reason and the pool's terminationGracePeriod, and what the pass tells of
 * it — a lifecycle record, a `Disrupting` decision and, on its node, `DisruptionTerminating`.
 * Termination takes it from there through the usual drain. Disruption, a deleted NodePool and a
 * static pool's surplus all mark claims this way.
 */
import {
  claimDisruption,
  forcefulDisruption,
  markedForDeletion,
} from '../../domain/lifecycle/claim-deletion.ts';
import type { NodePool } from '../../domain/node-pool.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type { ClusterEvent } from '../../ports/cluster.ts';
import type { Decision } from '../../ports/decisions.ts';
import type { FencedWrite } from '../../ports/state-store.ts';
import { decisionOf } from './decisions.ts';
import { nodeEvent } from './node-event.ts';
import type { PassDependencies } from './pass-dependencies.ts';
import type { LifecycleRecord } from './pass-report.ts';

export interface ClaimMarked {
  readonly claim: NodeClaimRecord;
  readonly record: LifecycleRecord;
  readonly decision: Decision;
  readonly events: readonly ClusterEvent[];
}

/** The claim marked and what to tell of it; undefined when it was already going. */
export async function markClaimForDeletion(
  deps: Pick<PassDependencies, 'state' | 'clock'>,
  write: FencedWrite,
  mark: {
    readonly claim: NodeClaimRecord;
    readonly pool: NodePool | undefined;
    readonly reason: string;
    readonly message: string;
    /** Repair: pods are not waited for, whatever the pool's terminationGracePeriod. */
    readonly forceful?: boolean;
  },
): Promise<ClaimMarked | undefined> {
  const { claim, reason, message } = mark;
  const now = deps.clock.now();
  const disruption = mark.forceful
    ? forcefulDisruption(reason, message, now)
    : claimDisruption(reason, message, now, mark.pool);
  const marked = markedForDeletion(claim, disruption);
  if (marked === undefined) return undefined;
  const updated = await deps.state.nodeClaims.update(marked, write);
  const why = `${reason}: ${message}`;
  const record: LifecycleRecord = {
    at: now.toISOString(),
    kind: 'Disrupting',
    claim: updated.name,
    ...(updated.nodeName ? { nodeName: updated.nodeName } : {}),
    reason: why,
  };
  const events =
    claim.nodeName === undefined
      ? []
      : [nodeEvent(claim.nodeName, 'DisruptionTerminating', `Disrupting node: ${why}`)];
  return { claim: updated, record, decision: decisionOf('Disrupting', updated, now, why), events };
}
