/** The human view of a disruption plan: the decisions in order, then why each other node stays. */
import type { DisruptionReport } from '../../functions/use-cases/disruption/disruption-report.ts';
import { agree, plural, table } from './text-table.ts';

function nodesOf(nodes: readonly string[]): string {
  return nodes.length <= 3
    ? nodes.join(', ')
    : `${nodes.slice(0, 2).join(', ')} and ${nodes.length - 2} more`;
}

export function renderDisruptionTable(report: DisruptionReport, currency = '$'): string {
  const sections: string[] = [];
  if (report.decisions.length > 0) {
    const rows = report.decisions.map((d) => [
      d.method,
      nodesOf(d.nodes),
      d.replacement === null
        ? '-'
        : `${d.replacement.instanceType} (${d.replacement.capacityType}, ${d.replacement.zone})`,
      `${currency}${d.savingsPerHour.toFixed(4)}`,
      d.budgets.map((b) => `${b.nodePool}: ${b.budget ?? 'none applies'}`).join('; ') || '-',
      d.message,
    ]);
    sections.push(table(['METHOD', 'NODES', 'REPLACEMENT', 'SAVES/H', 'BUDGET', 'WHY'], rows));
  }
  if (report.staying.length > 0) {
    sections.push(
      table(
        ['STAYING', 'WHY'],
        report.staying.map((s) => [s.node, s.reason]),
      ),
    );
  }
  const saved = report.decisions.reduce((sum, d) => sum + d.savingsPerHour, 0);
  const going = report.decisions.reduce((sum, d) => sum + d.nodes.length, 0);
  sections.push(
    `${plural(report.decisions.length, 'decision')}: ${plural(going, 'node')} to go, saving ${currency}${saved.toFixed(4)} per hour; ${plural(report.staying.length, 'node')} ${agree(report.staying.length, 'stay')}`,
  );
  return `${sections.join('\n\n')}\n`;
}
