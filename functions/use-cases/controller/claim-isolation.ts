/**
 * One claim's failure stays that claim's (Karpenter reconciles each NodeClaim on its own): an
 * action that fails — TerminateInstances refused, a node patch an admission webhook rejects, an
 * eviction answered 403 — is told (a Warning Event on the node, the pass report and its
 * metric), the claim is backed off on its record so the next passes leave it alone for a while,
 * and the pass carries on with everything else. What is not the claim's still ends the pass: a
 * lost lease, and a state store that cannot record the failure.
 */
import { isBackingOff, withFailure, withoutFailure } from '../../domain/lifecycle/claim-backoff.ts';
import type { LeaseGrant } from '../../domain/state/lease.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type { ClusterEvent } from '../../ports/cluster.ts';
import { ConflictError, NotFoundError } from '../../ports/errors.ts';
import type { ClaimChange } from './claim-step.ts';
import { LeaseLostError } from './lease-guard.ts';
import type { PassDependencies } from './pass-dependencies.ts';
import type { ClaimActionFailure } from './pass-report.ts';

/** What failed: the action's name (`Register`, `Drain`, …) and what it was about. */
export interface FailedAction {
  readonly action: string;
  readonly claim?: NodeClaimRecord;
  readonly nodeName?: string;
  readonly instanceId?: string;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The report's reason for an action that failed: the action and what went wrong. */
export function failureReason(action: string, err: unknown): string {
  return `${action}: ${messageOf(err)}`;
}

export class ClaimIsolation {
  readonly #deps: Pick<PassDependencies, 'state' | 'clock'>;
  readonly #grant: LeaseGrant;
  readonly failures: ClaimActionFailure[] = [];
  readonly events: ClusterEvent[] = [];

  constructor(deps: Pick<PassDependencies, 'state' | 'clock'>, grant: LeaseGrant) {
    this.#deps = deps;
    this.#grant = grant;
  }

  /** Whether the claim may be acted on now, or is waiting out its backoff. */
  isDue(claim: NodeClaimRecord): boolean {
    return !isBackingOff(claim, this.#deps.clock.now());
  }

  /**
   * Records the failure and backs the claim off; resolves with the claim as now stored (a later
   * step of the pass writes over that version), undefined when there is none. Rejects, ending
   * the pass, when the failure is not the claim's.
   */
  async failed(what: FailedAction, err: unknown): Promise<NodeClaimRecord | undefined> {
    await this.#rethrowIfNotTheClaims(err);
    const now = this.#deps.clock.now();
    const message = messageOf(err);
    const backedOff = await this.#backOff(what, message, now);
    const nodeName = what.nodeName ?? what.claim?.nodeName;
    const { failure } = backedOff ?? {};
    this.failures.push({
      at: now.toISOString(),
      action: what.action,
      ...(what.claim === undefined ? {} : { claim: what.claim.name }),
      ...(nodeName === undefined ? {} : { nodeName }),
      ...(what.instanceId === undefined ? {} : { instanceId: what.instanceId }),
      message,
      ...(failure === undefined ? {} : { attempts: failure.attempts, retryAt: failure.retryAt }),
    });
    if (nodeName !== undefined)
      this.events.push(this.#event(nodeName, what.action, message, failure?.retryAt));
    return backedOff;
  }

  /**
   * Runs the action on the claim without its old failure, so that a write succeeding clears it;
   * when the action neither writes nor removes the claim, the failure is cleared in the store, so
   * the next failure starts from the shortest wait again. Rejects as the action does: the caller
   * tells the failure (`failed`).
   */
  async clearingFailure<TChange extends ClaimChange>(
    claim: NodeClaimRecord,
    action: (claim: NodeClaimRecord) => Promise<TChange>,
  ): Promise<TChange> {
    const change = await action(withoutFailure(claim));
    if (change.claim !== undefined || change.removed !== undefined) return change;
    const cleared = await this.#succeeded(claim);
    return cleared === undefined ? change : { ...change, claim: cleared };
  }

  /** The claim with its failure cleared in the store; undefined when it had none. */
  async #succeeded(claim: NodeClaimRecord): Promise<NodeClaimRecord | undefined> {
    if (claim.failure === undefined) return undefined;
    try {
      return await this.#deps.state.nodeClaims.update(withoutFailure(claim), {
        fence: this.#grant,
      });
    } catch (err) {
      await this.#rethrowIfNotTheClaims(err);
      return undefined;
    }
  }

  /**
   * A lost lease ends the pass. A conflict on a claim write is either that (a stale fence) or
   * another writer changing the claim (the interruption function): only the store can say.
   */
  async #rethrowIfNotTheClaims(err: unknown): Promise<void> {
    if (err instanceof LeaseLostError) throw err;
    if (!(err instanceof ConflictError)) return;
    if (await this.#deps.state.lease.isHeld(this.#grant, this.#deps.clock.now())) return;
    throw new LeaseLostError(`lease ${this.#grant.fencingToken} was lost: ${err.message}`, {
      cause: err,
    });
  }

  /** The failure kept on the claim read fresh (the action may have written it already). */
  async #backOff(what: FailedAction, message: string, now: Date) {
    if (what.claim === undefined) return undefined;
    const current = await this.#deps.state.nodeClaims.get(what.claim.name);
    if (current === undefined) return undefined;
    try {
      const failed = withFailure(current, what.action, message, now);
      return await this.#deps.state.nodeClaims.update(failed, { fence: this.#grant });
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      await this.#rethrowIfNotTheClaims(err);
      return undefined;
    }
  }

  #event(nodeName: string, action: string, message: string, retryAt?: string): ClusterEvent {
    const retry = retryAt === undefined ? '' : `; trying again after ${retryAt}`;
    return {
      involvedObject: { kind: 'Node', name: nodeName },
      type: 'Warning',
      reason: `Failed${action}`,
      message: `${action} failed: ${message}${retry}`,
      dedupeSeconds: 60,
    };
  }
}
