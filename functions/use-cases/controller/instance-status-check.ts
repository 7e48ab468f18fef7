/**
 * EC2's status checks, read at the start of every pass (docs/design.md §3; aws:
 * pkg/controllers/interruption/instancestatus_controller.go polls them every minute): each
 * failing check or scheduled event of a claim's instance is handled as the interruption function
 * handles an event — the claim marked for deletion (forcefully for a failed check), its node
 * tainted, one Event told. It runs before the claims are read, so the pass sees them as marked
 * (and when it acted, the rest of the snapshot is read again after it).
 * A failure here costs only this check: the next pass reads the statuses again, as Karpenter's
 * controller tries again; Karpenter likewise carries on when the call is not allowed.
 *
 * What each message did is returned for the pass report, which Karpenter's metrics count from.
 */
import { instanceStatusMessages } from '../../domain/interruption/instance-status.ts';
import {
  handleInterruption,
  type InterruptionOutcome,
} from '../interruption/handle-interruption.ts';
import type { PassDependencies } from './pass-dependencies.ts';

/** The pass asks for its own next pass while claims are in flight: no wake is needed. */
const NO_WAKE = { wake: async () => undefined };

export interface StatusChecks {
  /** What each failing category did. */
  readonly outcomes: InterruptionOutcome[];
  /** Whether any was handled, so claims or nodes may have changed (even if handling failed). */
  readonly acted: boolean;
}

export async function checkInstanceStatuses(deps: PassDependencies): Promise<StatusChecks> {
  const now = deps.clock.now();
  let statuses: Awaited<ReturnType<PassDependencies['cloud']['instanceStatuses']>>;
  try {
    statuses = await deps.cloud.instanceStatuses();
  } catch {
    return { outcomes: [], acted: false };
  }
  const messages = instanceStatusMessages(statuses, now.getTime());
  const outcomes: InterruptionOutcome[] = [];
  for (const message of messages) {
    try {
      outcomes.push(await handleInterruption({ ...deps, waker: NO_WAKE }, message));
    } catch {
      // The claim changed under us or the API server is away: the next pass reads it again.
    }
  }
  return { outcomes, acted: messages.length > 0 };
}
