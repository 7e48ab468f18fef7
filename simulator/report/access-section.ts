/**
 * What a deployed run's functions asked of AWS and of the cluster, as the report shows it
 * (docs/design.md §9): the AWS calls of each function by IAM action, and every request IAM or
 * the API server's RBAC refused, highlighted. A run in process reaches no account and gets no
 * such section.
 */
import type { AwsActivity, KubernetesActivity, KubernetesDenial } from '../run/nodesmith.ts';
import type { SimulationReport } from '../run/simulation-report.ts';
import { escapeHtml as e } from './escape.ts';

/** One refused request, IAM's or the API server's, as a row of the denials table. */
interface DenialRow {
  readonly function: string;
  readonly action: string;
  readonly resource: string;
  readonly answer: string;
}

function deniedCalls(aws: AwsActivity): Set<string> {
  return new Set(aws.denied.map((d) => `${d.function ?? ''}\n${d.action}`));
}

/** One row per IAM action, one column per function, the action's total last. */
function callsTable(aws: AwsActivity): string {
  const functions = Object.keys(aws.byFunction).sort();
  const denied = deniedCalls(aws);
  const head = functions.map((f) => `<th>${e(f)}</th>`).join('');
  const rows = Object.keys(aws.calls)
    .sort()
    .map((action) => {
      const cells = functions.map((f) => {
        const count = aws.byFunction[f]?.[action];
        const tone = denied.has(`${f}\n${action}`) ? 'num denied' : 'num';
        return `<td class="${tone}">${count === undefined ? '' : count}</td>`;
      });
      return `<tr><td>${e(action)}</td>${cells.join('')}<td class="num">${aws.calls[action]}</td></tr>`;
    })
    .join('\n');
  return `<table class="aws-calls"><thead><tr><th>action</th>${head}<th>all</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** A Kubernetes refusal named as `--deny` names the permission: `k8s:patch:nodes`. */
function kubernetesRow(d: KubernetesDenial): DenialRow {
  const object = [d.namespace, d.name].filter((part) => part !== undefined).join('/');
  return {
    function: d.function ?? '',
    action: d.verb === undefined ? 'k8s: not authenticated' : `k8s:${d.verb}:${d.resource ?? ''}`,
    resource: object,
    answer: d.message,
  };
}

function denialRows(aws: AwsActivity, kubernetes: KubernetesActivity | undefined): DenialRow[] {
  const iam = aws.denied.map((d) => ({
    function: d.function ?? '',
    action: d.action,
    resource: d.resource ?? '',
    answer: '',
  }));
  return [...iam, ...(kubernetes?.denied ?? []).map(kubernetesRow)];
}

function deniedPart(rows: readonly DenialRow[]): string {
  if (rows.length === 0) return '<p class="nothing-denied">Nothing was denied.</p>';
  const body = rows
    .map(
      (r) =>
        `<tr class="denied"><td>${e(r.function)}</td><td>${e(r.action)}</td><td>${e(r.resource)}</td><td>${e(r.answer)}</td></tr>`,
    )
    .join('\n');
  return `<h2>Denied (${rows.length})</h2>
<table class="denials"><thead><tr><th>function</th><th>action</th><th>resource</th><th>answer</th></tr></thead>
<tbody>${body}</tbody></table>`;
}

export function accessSection({ summary }: SimulationReport): string {
  const { aws, kubernetes } = summary;
  if (aws === undefined) return '';
  return `<section class="access"><h2>AWS calls by function</h2>
${callsTable(aws)}
${deniedPart(denialRows(aws, kubernetes))}</section>`;
}
