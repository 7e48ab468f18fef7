/** An Event on a Node, as `kubectl describe node` shows it. */
import type { ClusterEvent } from '../../ports/cluster.ts';

export interface NodeEventOptions {
  readonly warning?: boolean;
  /** Skip an equal event recorded this lately: for events every pass would repeat. */
  readonly dedupeSeconds?: number;
}

export function nodeEvent(
  node: string,
  reason: string,
  message: string,
  { warning = false, dedupeSeconds }: NodeEventOptions = {},
): ClusterEvent {
  return {
    involvedObject: { kind: 'Node', name: node },
    type: warning ? 'Warning' : 'Normal',
    reason,
    message,
    ...(dedupeSeconds === undefined ? {} : { dedupeSeconds }),
  };
}
