/**
 * Which audit events should bring the next controller pass sooner: pods created, pods
 * kube-scheduler marked `PodScheduled=False/Unschedulable`, pods and nodes deleted, nodes
 * created or changed (ready, taints). Reads, failed requests, bindings (a pod found a node) and
 * exec/log/attach requests do not. The controller reconciles the whole cluster either way; a
 * signal only saves waiting for the minute tick.
 */
import type { AuditEvent } from './audit-event.ts';

export type WakeSignal =
  | 'pod created'
  | 'pod unschedulable'
  | 'pod deleted'
  | 'node created'
  | 'node deleted'
  | 'node updated';

const WRITES: ReadonlySet<string> = new Set(['create', 'update', 'patch', 'delete']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether the object or status patch sets `PodScheduled=False` with reason `Unschedulable`. */
export function setsUnschedulable(body: unknown): boolean {
  if (!isRecord(body) || !isRecord(body.status)) return false;
  const conditions = body.status.conditions;
  return (
    Array.isArray(conditions) &&
    conditions.some(
      (c) =>
        isRecord(c) &&
        c.type === 'PodScheduled' &&
        c.status === 'False' &&
        c.reason === 'Unschedulable',
    )
  );
}

function podSignal(event: AuditEvent, subresource: string | undefined): WakeSignal | undefined {
  if (subresource === undefined) {
    if (event.verb === 'create') return 'pod created';
    if (event.verb === 'delete') return 'pod deleted';
  }
  const statusWrite = subresource === 'status' || subresource === undefined;
  const unschedulable =
    setsUnschedulable(event.requestObject) || setsUnschedulable(event.responseObject);
  return statusWrite && event.verb !== 'delete' && unschedulable ? 'pod unschedulable' : undefined;
}

function nodeSignal(event: AuditEvent, subresource: string | undefined): WakeSignal | undefined {
  if (subresource !== undefined && subresource !== 'status') return undefined;
  if (event.verb === 'create') return subresource === undefined ? 'node created' : 'node updated';
  if (event.verb === 'delete') return 'node deleted';
  return 'node updated';
}

export function wakeSignal(event: AuditEvent): WakeSignal | undefined {
  if (event.stage !== 'ResponseComplete' || !WRITES.has(event.verb)) return undefined;
  if (event.code !== undefined && (event.code < 200 || event.code >= 300)) return undefined;
  const { resource, subresource } = event.objectRef ?? {};
  if (resource === 'pods') return podSignal(event, subresource);
  if (resource === 'nodes') return nodeSignal(event, subresource);
  return undefined;
}

export interface WakeSummary {
  /** Events that matter. */
  readonly relevant: number;
  /** `2 pods unschedulable, 1 node deleted`, in a fixed order. */
  readonly reason: string;
}

const ORDER: readonly WakeSignal[] = [
  'pod unschedulable',
  'pod created',
  'pod deleted',
  'node created',
  'node updated',
  'node deleted',
];

function phrase(signal: WakeSignal, count: number): string {
  const [kind, what] = signal.split(' ') as [string, string];
  return `${count} ${kind}${count === 1 ? '' : 's'} ${what}`;
}

/** What the events amount to, or undefined when none of them matters. */
export function summarizeSignals(events: readonly AuditEvent[]): WakeSummary | undefined {
  const counts = new Map<WakeSignal, number>();
  for (const event of events) {
    const signal = wakeSignal(event);
    if (signal !== undefined) counts.set(signal, (counts.get(signal) ?? 0) + 1);
  }
  if (counts.size === 0) return undefined;
  const parts = ORDER.filter((s) => counts.has(s)).map((s) => phrase(s, counts.get(s) ?? 0));
  return { relevant: [...counts.values()].reduce((a, b) => a + b, 0), reason: parts.join(', ') };
}
