/** `nodesmith pools get` and `status` for people: tables like `kubectl get nodepools`. */
import { table } from '../text-table.ts';

interface ShownPool {
  readonly metadata: { readonly name: string; readonly resourceVersion?: string };
  readonly spec: {
    readonly template: { readonly spec: { readonly nodeClassRef: { readonly name: string } } };
  };
  readonly status?: PoolStatus;
}

export interface PoolStatus {
  readonly name: string;
  readonly ready: boolean;
  readonly notReady?: { readonly reason: string };
  readonly nodes: number;
  readonly inFlight: number;
  readonly resources: Readonly<Record<string, string>>;
  readonly limits: Readonly<Record<string, string>>;
  readonly limitUsage?: Readonly<Record<string, LimitUsage>>;
  readonly costPerHour: number;
  readonly disruptions: readonly { readonly nodeClaim: string; readonly reason: string }[];
  readonly recentDisruptions?: readonly { readonly reason: string }[];
}

interface LimitUsage {
  readonly used: string;
  readonly limit: string;
}

/** The cluster line of `GET /v1/status`. */
export interface ClusterStatus {
  readonly nodes: number;
  readonly costPerHour: number;
  readonly limitUsage: Readonly<Record<string, LimitUsage>>;
}

/** `nodes 3/4, nodesmith.io/hourly-cost $0.29/$0.30`, or `-` without limits. */
function limitsCell(usage: Readonly<Record<string, LimitUsage>> | undefined): string {
  const entries = Object.entries(usage ?? {});
  if (entries.length === 0) return '-';
  return entries.map(([name, u]) => `${name} ${u.used}/${u.limit}`).join(', ');
}

const ready = (s: PoolStatus | undefined) =>
  s === undefined ? 'Unknown' : s.ready ? 'True' : `False (${s.notReady?.reason ?? ''})`;

export function poolsTable(items: readonly ShownPool[]): string {
  const rows = items.map((p) => [
    p.metadata.name,
    p.spec.template.spec.nodeClassRef.name,
    String(p.status?.nodes ?? 0),
    ready(p.status),
    p.metadata.resourceVersion ?? '',
  ]);
  return `${table(['NAME', 'NODECLASS', 'NODES', 'READY', 'VERSION'], rows)}\n`;
}

export function classesTable(items: readonly ShownPool['metadata'][]): string {
  const rows = items.map((m) => [m.name, m.resourceVersion ?? '']);
  return `${table(['NAME', 'VERSION'], rows)}\n`;
}

interface ShownOverlay {
  readonly metadata: ShownPool['metadata'];
  readonly spec: {
    readonly weight?: number;
    readonly price?: string;
    readonly priceAdjustment?: string;
    readonly capacity?: Readonly<Record<string, string | number>>;
  };
}

/** `nvidia.com/gpu=4`, or `-` when the overlay changes only prices. */
function capacityCell(capacity: ShownOverlay['spec']['capacity']): string {
  const entries = Object.entries(capacity ?? {});
  if (entries.length === 0) return '-';
  return entries.map(([name, quantity]) => `${name}=${quantity}`).join(',');
}

/**
 * Karpenter prints an overlay's weight; its Ready and Age have no counterpart here (whether an
 * overlay conflicts depends on the instance types it meets, which the dry run reports), so the
 * table shows what the overlay changes instead.
 */
export function overlaysTable(items: readonly ShownOverlay[]): string {
  const rows = items.map((o) => [
    o.metadata.name,
    String(o.spec.weight ?? '-'),
    o.spec.price ?? o.spec.priceAdjustment ?? '-',
    capacityCell(o.spec.capacity),
    o.metadata.resourceVersion ?? '',
  ]);
  return `${table(['NAME', 'WEIGHT', 'PRICE', 'CAPACITY', 'VERSION'], rows)}\n`;
}

function used(s: PoolStatus, resource: string): string {
  const limit = s.limits[resource];
  const amount = s.resources[resource] ?? '0';
  return limit === undefined ? amount : `${amount}/${limit}`;
}

export function statusTable(pools: readonly PoolStatus[], cluster?: ClusterStatus): string {
  const rows = pools.map((s) => [
    s.name,
    ready(s),
    String(s.nodes),
    String(s.inFlight),
    used(s, 'cpu'),
    used(s, 'memory'),
    `$${s.costPerHour.toFixed(4)}`,
    limitsCell(s.limitUsage),
    String(s.recentDisruptions?.length ?? 0),
    s.disruptions.map((d) => `${d.nodeClaim} (${d.reason})`).join(', ') || '-',
  ]);
  const header = [
    'NODEPOOL',
    'READY',
    'NODES',
    'IN FLIGHT',
    'CPU',
    'MEMORY',
    'COST/H',
    'LIMITS',
    'DISRUPTED 24H',
    'DISRUPTING',
  ];
  const whole =
    cluster === undefined
      ? ''
      : `\ncluster: ${cluster.nodes} nodes, $${cluster.costPerHour.toFixed(4)} per hour; limits: ${limitsCell(cluster.limitUsage)}\n`;
  return `${table(header, rows)}\n${whole}`;
}
