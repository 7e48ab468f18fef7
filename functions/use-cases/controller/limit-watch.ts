/**
 * The moment a limit starts refusing capacity: the limits that refused pods in this pass are
 * compared with those the state records as refusing. A new one is recorded and told (an event on
 * the bus, a metric); one that refused nothing this pass is over, so the next refusal is news
 * again. Recording is conditional, so of passes racing exactly one tells.
 */
import type { LimitRefusal } from '../../domain/limits/limit-scope.ts';
import type { UnschedulablePod } from '../../domain/scheduling/provisioning-plan.ts';
import { refusingLimitKey } from '../../domain/state/refusing-limit.ts';
import type { LimitReached } from '../../ports/decisions.ts';
import type { PassDependencies } from './pass-dependencies.ts';

/** Each limit that refused pods, with how many. */
function refusals(unschedulable: readonly UnschedulablePod[]): Map<string, [LimitRefusal, number]> {
  const out = new Map<string, [LimitRefusal, number]>();
  for (const pod of unschedulable) {
    const seen = new Set<string>();
    for (const { limit } of pod.reasons) {
      if (limit === undefined) continue;
      const key = refusingLimitKey(limit);
      if (seen.has(key)) continue;
      seen.add(key);
      const [first, pods] = out.get(key) ?? [limit, 0];
      out.set(key, [first, pods + 1]);
    }
  }
  return out;
}

export async function watchLimits(
  deps: Pick<PassDependencies, 'state'>,
  unschedulable: readonly UnschedulablePod[],
  now: Date,
): Promise<LimitReached[]> {
  const refusing = refusals(unschedulable);
  const store = deps.state.refusingLimits;
  for (const known of await store.list()) {
    if (!refusing.has(known.key)) await store.end(known.key);
  }
  const reached: LimitReached[] = [];
  for (const [key, [refusal, pods]] of refusing) {
    const since = now.toISOString();
    if (!(await store.begin({ key, ...refusal, since }))) continue;
    reached.push({ kind: 'LimitReached', time: since, ...refusal, pods });
  }
  return reached;
}
