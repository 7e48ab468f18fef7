/**
 * EC2's status checks as Karpenter reads them (aws: pkg/providers/instancestatus/instancestatus.go
 * and pkg/controllers/interruption/instancestatus_controller.go): DescribeInstanceStatus lists
 * the instances whose instance or system check is impaired or that have a scheduled event, and
 * each category with a failed detail becomes one interruption message. A failed check counts
 * once it has been impaired for two minutes; a scheduled event counts at once, since it means
 * the host is to be vacated. EBS checks are left out: a failed volume may be a pod's, not the
 * node's.
 */
import type { InterruptionMessage } from './interruption-message.ts';

export type StatusCategory = 'InstanceStatus' | 'SystemStatus' | 'EventStatus' | 'EBSStatus';

export interface StatusDetail {
  readonly category: StatusCategory;
  /** The check (`reachability`) or the event code (`system-maintenance`, `instance-retirement`, …). */
  readonly name: string;
  /** `passed`, `failed`, `insufficient-data` or `initializing`; scheduled events read `failed`. */
  readonly status: string;
  /** ISO-8601; absent for scheduled events and checks that never failed. */
  readonly impairedSince?: string;
}

export interface InstanceStatus {
  readonly instanceId: string;
  readonly details: readonly StatusDetail[];
}

/** How long a check must have failed before it counts (`UnhealthyThreshold`). */
export const UNHEALTHY_THRESHOLD_MS = 120_000;

/** Forceful kinds first: a claim already marked gracefully would not be marked again. */
const KINDS = [
  ['InstanceStatus', 'InstanceStatusFailed'],
  ['SystemStatus', 'SystemStatusFailed'],
  ['EventStatus', 'ScheduledEvent'],
] as const;

/** The status category a message of EC2's status checks came from, none for other messages. */
export function statusCategoryOf(kind: InterruptionMessage['kind']): StatusCategory | undefined {
  return KINDS.find(([, k]) => k === kind)?.[0];
}

function counts(detail: StatusDetail, nowMs: number): boolean {
  if (detail.status !== 'failed' || detail.category === 'EBSStatus') return false;
  if (detail.category === 'EventStatus') return true;
  // Go's zero time for a missing impairedSince: long past the threshold.
  const since = Date.parse(detail.impairedSince ?? '');
  return nowMs - (Number.isNaN(since) ? 0 : since) >= UNHEALTHY_THRESHOLD_MS;
}

/**
 * One message per instance and failing category. Its id names both, so the Event it causes is
 * told once however many passes see the same failure.
 */
export function instanceStatusMessages(
  statuses: readonly InstanceStatus[],
  nowMs: number,
): InterruptionMessage[] {
  const time = new Date(nowMs).toISOString();
  return statuses.flatMap((status) => {
    const failing = status.details.filter((d) => counts(d, nowMs));
    return KINDS.flatMap(([category, kind]) => {
      const checks = failing.filter((d) => d.category === category).map((d) => d.name);
      if (checks.length === 0) return [];
      const id = `instance-status/${status.instanceId}/${category}`;
      return [{ id, kind, instanceIds: [status.instanceId], time, checks }];
    });
  });
}
