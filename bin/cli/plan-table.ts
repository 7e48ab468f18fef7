/** The human view of a plan: what would launch, where pods go, what cannot run, and the cost. */
import type { PlanReport } from '../../functions/use-cases/plan/plan-report.ts';
import { groupByReason } from '../../functions/use-cases/plan/unschedulable-groups.ts';
import { plural, table } from './text-table.ts';
import { listPods, unschedulableTable } from './unschedulable-table.ts';

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
    sections.push(unschedulableTable(groupByReason(report.unschedulable)));
  }
  const { summary } = report;
  sections.push(
    `${plural(summary.pendingPods, 'pending pod')}: ${plural(summary.newNodeClaims, 'new node claim')} for ${currency}${summary.pricePerHour.toFixed(4)} per hour (${summary.priceSource} prices), ${report.unschedulable.length} unschedulable`,
  );
  return `${sections.join('\n\n')}\n`;
}
