/** The human view of a plan: what would launch, where pods go, what cannot run, and the cost. */
import type { PlanReport } from '../../functions/use-cases/plan/plan-report.ts';
import { plural, table } from './text-table.ts';

function listPods(pods: readonly string[]): string {
  return pods.length <= 3
    ? pods.join(', ')
    : `${pods.slice(0, 2).join(', ')} and ${pods.length - 2} more`;
}

export function renderPlanTable(report: PlanReport, currency = '$'): string {
  const sections: string[] = [];
  if (report.nodeClaims.length > 0) {
    const rows = report.nodeClaims.map((c) => [
      c.name,
      c.nodePool,
      c.instanceType,
      c.zone,
      c.capacityType,
      `${currency}${c.pricePerHour.toFixed(4)}`,
      `${c.pods.length}`,
      listPods(c.pods),
    ]);
    sections.push(
      table(
        ['NODECLAIM', 'NODEPOOL', 'INSTANCE TYPE', 'ZONE', 'CAPACITY', 'PER HOUR', 'PODS', ''],
        rows,
      ),
    );
  }
  if (report.existingNodes.length > 0) {
    const rows = report.existingNodes.map((n) => [n.name, `${n.pods.length}`, listPods(n.pods)]);
    sections.push(table(['EXISTING NODE', 'PODS', ''], rows));
  }
  if (report.unschedulable.length > 0) {
    // Pods of one workload usually fail for the same reason: one row per reason reads better.
    const byReason = new Map<string, string[]>();
    for (const u of report.unschedulable)
      byReason.set(u.reason, [...(byReason.get(u.reason) ?? []), u.pod]);
    const rows = [...byReason].map(([reason, pods]) => [listPods(pods), reason]);
    sections.push(table(['UNSCHEDULABLE', 'REASON'], rows));
  }
  const { summary } = report;
  sections.push(
    `${plural(summary.pendingPods, 'pending pod')}: ${plural(summary.newNodeClaims, 'new node claim')} for ${currency}${summary.pricePerHour.toFixed(4)} per hour (${summary.priceSource} prices), ${report.unschedulable.length} unschedulable`,
  );
  return `${sections.join('\n\n')}\n`;
}
