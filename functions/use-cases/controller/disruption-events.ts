/**
 * The disruption Events Karpenter users alert on, with Karpenter's reasons, types, messages and
 * dedupe windows (core: disruption/events/events.go, node/termination/terminator/events/events.go).
 * Karpenter tells most of them on the NodeClaim as well; Nodesmith keeps NodeClaims in its state
 * store, not in the cluster, so each goes on the Node it concerns (docs/controller.md, "Events").
 */
import type {
  DisruptionDecision,
  StayingNode,
} from '../../domain/disruption/disruption-plan-types.ts';
import type { ClusterEvent } from '../../ports/cluster.ts';
import { nodeEvent } from './node-event.ts';

/** core: events/recorder.go defaultDedupeTimeout. */
const DEFAULT_DEDUPE_SECONDS = 120;
/** core: disruption/events/events.go Unconsolidatable's DedupeTimeout. */
const UNCONSOLIDATABLE_DEDUPE_SECONDS = 15 * 60;

/** `cases.Title(language.Und, cases.NoLower)`: each word's first letter raised, the rest kept. */
export function titleCase(text: string): string {
  return text.replace(/(^|[^\p{L}\p{N}'])(\p{Ll})/gu, (_, before: string, letter: string) => {
    return before + letter.toUpperCase();
  });
}

/** Why consolidation leaves the node, where Karpenter tells it; undefined where it does not. */
export function unconsolidatableEvent(stay: StayingNode): ClusterEvent | undefined {
  if (stay.unconsolidatable === undefined) return undefined;
  return nodeEvent(stay.node, 'Unconsolidatable', stay.unconsolidatable, {
    dedupeSeconds: UNCONSOLIDATABLE_DEDUPE_SECONDS,
  });
}

/** A disruption's replacement is launching; told on the disrupted node (Karpenter: its NodeClaim). */
export function launchingEvent(node: string, reason: string): ClusterEvent {
  return nodeEvent(node, 'DisruptionLaunching', `Launching NodeClaim: ${titleCase(reason)}`, {
    dedupeSeconds: DEFAULT_DEDUPE_SECONDS,
  });
}

/** The disrupted node waits for its replacements to initialize before it drains. */
export function waitingOnReadinessEvent(node: string): ClusterEvent {
  return nodeEvent(
    node,
    'DisruptionWaitingReadiness',
    'Waiting on readiness to continue disruption',
    { dedupeSeconds: DEFAULT_DEDUPE_SECONDS },
  );
}

/**
 * The node's pods are deleted, PodDisruptionBudgets or not, at `terminateBy`: the time as
 * Karpenter writes its termination-timestamp annotation (RFC 3339, whole seconds).
 */
export function terminationGracePeriodExpiringEvent(
  node: string,
  terminateBy: string,
): ClusterEvent {
  const at = new Date(terminateBy).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return nodeEvent(node, 'TerminationGracePeriodExpiring', `All pods will be deleted by ${at}`, {
    warning: true,
    dedupeSeconds: DEFAULT_DEDUPE_SECONDS,
  });
}

/**
 * A `Balanced` pool's approval of a consolidation, with its score, on each of the command's
 * nodes of that pool. Karpenter tells a single-node approval on the node and a multi-node one on
 * the NodePool (core: balanced.go ApproveCommand, EmitMultiNodeEvents); Nodesmith's NodePools
 * are not cluster objects, so the nodes the pool gives up carry it.
 */
export function consolidationApprovedEvents(decision: DisruptionDecision): ClusterEvent[] {
  return (decision.scores ?? []).flatMap((s) =>
    s.nodes.map((node) =>
      nodeEvent(node, 'ConsolidationApproved', s.message, {
        dedupeSeconds: DEFAULT_DEDUPE_SECONDS,
      }),
    ),
  );
}
