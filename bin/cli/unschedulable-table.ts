/**
 * Pods that cannot be placed, one row per reason, as `plan` and `simulate` print them.
 */
import type { UnschedulableGroup } from '../../functions/use-cases/plan/unschedulable-groups.ts';
import { table } from './text-table.ts';

export function listPods(pods: readonly string[]): string {
  return pods.length <= 3
    ? pods.join(', ')
    : `${pods.slice(0, 2).join(', ')} and ${pods.length - 2} more`;
}

export function unschedulableTable(groups: readonly UnschedulableGroup[]): string {
  return table(
    ['UNSCHEDULABLE', 'REASON'],
    groups.map((g) => [listPods(g.pods), g.reason]),
  );
}
