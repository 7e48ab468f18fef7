/**
 * What `kubectl get nodepools,nodeclaims` tells a Karpenter user, for the API's `GET /v1/status`:
 * per NodePool whether it is ready (its EC2NodeClass exists), its nodes and claims still on
 * their way, the resources its claims hold against its limits, what it costs per hour at the
 * prices its offerings were launched at, its disruptions in progress and those of the last day.
 */

import { isGoing } from '../lifecycle/claim-deletion.ts';
import { claimCharges } from '../limits/claim-charges.ts';
import { type LimitUsage, usageReport } from '../limits/limit-scope.ts';
import { parseLimits } from '../limits/parsed-limits.ts';
import type { EC2NodeClass } from '../node-class.ts';
import type { NodePool } from '../node-pool.ts';
import { add, formatResource, type Resources } from '../resources.ts';
import { NodeClaimPhase, type NodeClaimRecord } from '../state/node-claim-record.ts';
import type { PastDisruption } from '../state/past-disruption.ts';
import { NODE_CLASS_NOT_FOUND, nodeClassNotFoundMessage } from './node-class-not-found.ts';

export interface PoolDisruption {
  readonly nodeClaim: string;
  readonly nodeName?: string;
  readonly reason: string;
  readonly message: string;
  readonly decidedAt: string;
}

export interface NodePoolStatus {
  readonly name: string;
  readonly nodeClass: string;
  readonly ready: boolean;
  /** Why it is not ready, in Karpenter's condition terms. */
  readonly notReady?: { readonly reason: string; readonly message: string };
  readonly resourceVersion: number;
  /** Claims whose node is up and initialized, and not going. */
  readonly nodes: number;
  /** Claims launched or launching whose node is not initialized yet. */
  readonly inFlight: number;
  /** Capacity of every claim the pool counts against its limits. */
  readonly resources: Readonly<Record<string, string>>;
  readonly limits: Readonly<Record<string, string>>;
  /** Every limit of the pool with what its claims use of it (going ones too: they still run). */
  readonly limitUsage: Readonly<Record<string, LimitUsage>>;
  readonly costPerHour: number;
  readonly disruptions: readonly PoolDisruption[];
  /** Disruptions that ended in the last day, newest first. */
  readonly recentDisruptions: readonly (PoolDisruption & { readonly endedAt: string })[];
}

export interface StatusInput {
  readonly nodePools: readonly { readonly document: NodePool; readonly resourceVersion: number }[];
  readonly nodeClasses: readonly EC2NodeClass[];
  readonly claims: readonly NodeClaimRecord[];
  readonly ended: readonly PastDisruption[];
}

function formatted(resources: Resources): Record<string, string> {
  const entries = Object.entries(resources).filter(([, amount]) => amount > 0);
  return Object.fromEntries(
    entries
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, n]) => [name, formatResource(name, n)]),
  );
}

function disruptionOf(claim: NodeClaimRecord): PoolDisruption[] {
  const d = claim.disruption;
  if (d === undefined) return [];
  return [
    {
      nodeClaim: claim.name,
      ...(claim.nodeName === undefined ? {} : { nodeName: claim.nodeName }),
      reason: d.reason,
      message: d.message,
      decidedAt: d.decidedAt,
    },
  ];
}

function endedOf(pool: string, ended: readonly PastDisruption[]) {
  return ended
    .filter((e) => e.nodePool === pool)
    .map(({ nodePool: _pool, expiresAt: _expiry, ...shown }) => shown);
}

function statusOf(
  pool: NodePool,
  resourceVersion: number,
  classes: ReadonlySet<string>,
  claims: readonly NodeClaimRecord[],
  ended: readonly PastDisruption[],
): NodePoolStatus {
  const nodeClass = pool.spec.template.spec.nodeClassRef.name;
  const ready = classes.has(nodeClass);
  const up = claims.filter((c) => c.phase === NodeClaimPhase.initialized && !isGoing(c));
  const inFlight = claims.filter(
    (c) => !isGoing(c) && c.phase !== NodeClaimPhase.initialized,
  ).length;
  const held = add(...claims.map((c) => c.capacity ?? {}));
  const cost = claims.reduce(
    (sum, c) => sum + (c.instanceId === undefined ? 0 : c.offering.pricePerHour),
    0,
  );
  return {
    name: pool.metadata.name,
    nodeClass,
    ready,
    ...(ready
      ? {}
      : {
          notReady: {
            reason: NODE_CLASS_NOT_FOUND,
            message: `${nodeClassNotFoundMessage(pool)}; apply it to launch for this pool`,
          },
        }),
    resourceVersion,
    nodes: up.length,
    inFlight,
    resources: { ...formatted(held), nodes: String(claims.length) },
    limits: Object.fromEntries(
      Object.entries(pool.spec.limits ?? {}).map(([name, value]) => [name, String(value)]),
    ),
    limitUsage: usageReport(
      { nodePool: pool.metadata.name, limits: parseLimits(pool.spec.limits ?? {}) },
      claimCharges(claims, new Map(), true),
    ),
    costPerHour: Math.round(cost * 10_000) / 10_000,
    disruptions: claims
      .flatMap(disruptionOf)
      .sort((a, b) => a.decidedAt.localeCompare(b.decidedAt)),
    recentDisruptions: endedOf(pool.metadata.name, ended),
  };
}

/** Every pool's status, by name; claims of pools that no longer exist are left out. */
export function poolStatuses(input: StatusInput): NodePoolStatus[] {
  const classes = new Set(input.nodeClasses.map((c) => c.metadata.name));
  const byPool = new Map<string, NodeClaimRecord[]>();
  for (const claim of input.claims) {
    byPool.set(claim.nodePool, [...(byPool.get(claim.nodePool) ?? []), claim]);
  }
  return [...input.nodePools]
    .sort((a, b) => a.document.metadata.name.localeCompare(b.document.metadata.name))
    .map(({ document, resourceVersion }) =>
      statusOf(
        document,
        resourceVersion,
        classes,
        byPool.get(document.metadata.name) ?? [],
        input.ended,
      ),
    );
}
