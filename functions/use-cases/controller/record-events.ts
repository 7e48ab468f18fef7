/**
 * Writing the pass's Kubernetes Events. Events are best effort: one that cannot be written is
 * not worth failing a pass for, so failures are counted, not thrown.
 */
import pLimit from 'p-limit';
import type { ClusterEvent, EventRecorder } from '../../ports/cluster.ts';

/** Records the events; resolves with how many could not be written. */
export async function recordEvents(
  recorder: EventRecorder,
  events: readonly ClusterEvent[],
  concurrency: number,
): Promise<number> {
  const limit = pLimit(concurrency);
  const results = await Promise.allSettled(events.map((e) => limit(() => recorder.createEvent(e))));
  return results.filter((r) => r.status === 'rejected').length;
}
