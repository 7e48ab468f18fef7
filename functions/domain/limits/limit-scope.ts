/**
 * A set of limits and what it covers: one NodePool's `spec.limits`, or the cluster's limits
 * that every pool counts against. Usage, what remains and why a node would not fit, exactly.
 */
import type { NodePool } from '../node-pool.ts';
import { GiB, ResourceName } from '../resources.ts';
import type { ClusterLimits } from './cluster-limits.ts';
import { formatDollars, HOURLY_COST } from './hourly-cost.ts';
import { amountOf, type Charge, NODES, type PoolCharge } from './limit-charge.ts';
import { type Limits, parseLimits } from './parsed-limits.ts';

export interface LimitScope {
  /** The pool the limits belong to; none for the cluster's. */
  readonly nodePool?: string;
  readonly limits: Limits;
}

/** Every NodePool's `spec.limits` and the cluster's limits, as scopes. */
export function limitScopes(sources: {
  readonly nodePools: readonly NodePool[];
  readonly clusterLimits?: ClusterLimits | undefined;
}): LimitScope[] {
  const scopes: LimitScope[] = sources.nodePools.flatMap((pool) =>
    pool.spec.limits === undefined
      ? []
      : [{ nodePool: pool.metadata.name, limits: parseLimits(pool.spec.limits) }],
  );
  if (sources.clusterLimits !== undefined)
    scopes.push({ limits: parseLimits(sources.clusterLimits.spec.limits) });
  return scopes;
}

export function covers(scope: LimitScope, nodePool: string): boolean {
  return scope.nodePool === undefined || scope.nodePool === nodePool;
}

/** What the scope's nodes use of each limited key. */
export function usageOf(scope: LimitScope, charges: readonly PoolCharge[]): Limits {
  const used: Record<string, bigint> = {};
  for (const name in scope.limits) used[name] = 0n;
  for (const { nodePool, charge } of charges) {
    if (!covers(scope, nodePool)) continue;
    for (const name in used) used[name] = (used[name] ?? 0n) + amountOf(charge, name);
  }
  return used;
}

/** The limits less what the scope's nodes use (negative once a limit was lowered below usage). */
export function remainingOf(scope: LimitScope, charges: readonly PoolCharge[]): Limits {
  const used = usageOf(scope, charges);
  const out: Record<string, bigint> = {};
  for (const [name, limit] of Object.entries(scope.limits)) out[name] = limit - (used[name] ?? 0n);
  return out;
}

/** Usage against one limit, for people: `{ used: "$248.10", limit: "$250.00" }`. */
export interface LimitUsage {
  readonly used: string;
  readonly limit: string;
}

/** What the scope's nodes use of each of its limits, formatted. */
export function usageReport(
  scope: LimitScope,
  charges: readonly PoolCharge[],
): Record<string, LimitUsage> {
  const used = usageOf(scope, charges);
  return Object.fromEntries(
    Object.entries(scope.limits).map(([name, limit]) => [
      name,
      { used: formatLimitAmount(name, used[name] ?? 0n), limit: formatLimitAmount(name, limit) },
    ]),
  );
}

/** The first limited key the charge would take past what remains, or undefined. */
export function exceededKey(charge: Charge, remaining: Limits): string | undefined {
  for (const name in remaining) {
    if (amountOf(charge, name) > (remaining[name] ?? 0n)) return name;
  }
  return undefined;
}

const NAMES: Readonly<Record<string, string>> = { [HOURLY_COST]: 'hourly cost', [NODES]: 'nodes' };

/** An amount of a limited key for people: `$248.10`, `62`, `1.5`, `60Gi`, `400`. */
export function formatLimitAmount(name: string, amount: bigint): string {
  if (name === HOURLY_COST) return formatDollars(amount);
  if (name === ResourceName.cpu) return `${Number(amount) / 1000}`;
  if (name === ResourceName.memory || name === ResourceName.ephemeralStorage) {
    const gib = BigInt(GiB);
    return amount % gib === 0n ? `${amount / gib}Gi` : `${(Number(amount) / GiB).toFixed(1)}Gi`;
  }
  return `${amount}`;
}

/** Which limit refused capacity, and the sentence for people. */
export interface LimitRefusal {
  /** The pool whose own limit it is; none for the cluster's. */
  readonly nodePool?: string;
  readonly limit: string;
  readonly message: string;
}

export function refusal(scope: LimitScope, name: string, remaining: Limits): LimitRefusal {
  const message = refusalMessage(scope, name, remaining);
  return scope.nodePool === undefined
    ? { limit: name, message }
    : { nodePool: scope.nodePool, limit: name, message };
}

/** `NodePool web would exceed its hourly cost limit: $248.10 of $250.00 used`. */
export function refusalMessage(scope: LimitScope, name: string, remaining: Limits): string {
  const limit = scope.limits[name] ?? 0n;
  const used = limit - (remaining[name] ?? 0n);
  const subject = scope.nodePool === undefined ? 'The cluster' : `NodePool ${scope.nodePool}`;
  return `${subject} would exceed its ${NAMES[name] ?? name} limit: ${formatLimitAmount(name, used)} of ${formatLimitAmount(name, limit)} used`;
}
