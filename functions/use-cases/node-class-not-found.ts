/**
 * NodePools whose EC2NodeClass is missing. Karpenter's readiness controller marks such a NodePool
 * `NodeClassReady=False` (reason `NodeClassNotFound`, core
 * `pkg/controllers/nodepool/readiness/controller.go`), so it is not ready and launches nothing;
 * a plan that assumed a default class instead would answer for a cluster that does not exist,
 * and a launch with one would start a node nobody configured. The controller's pass marks every
 * such pool (`markNodeClassesNotFound`), even when no class is stored at all. A what-if input
 * with no EC2NodeClass at all describes pools only (written by hand): `checkNodeClasses` leaves
 * its pools to plan with the class defaults (default-node-classes.ts).
 */
import type { EC2NodeClass } from '../domain/node-class.ts';
import type { NodePool } from '../domain/node-pool.ts';
import { nodeClassNotFound } from '../domain/pools/node-class-not-found.ts';

export interface NodeClassCheck {
  /** The pools, those without their class reporting Ready=False (NodeClassNotFound). */
  readonly nodePools: readonly NodePool[];
  /** One line per such pool, naming it and its missing class. */
  readonly warnings: readonly string[];
}

interface PoolsAndClasses {
  readonly nodePools: readonly NodePool[];
  readonly nodeClasses: readonly EC2NodeClass[];
}

function markNotFound(pool: NodePool): NodePool {
  const others = (pool.status?.conditions ?? []).filter((c) => c.type !== 'Ready');
  const conditions = [...others, nodeClassNotFound(pool)];
  return { ...pool, status: { ...pool.status, conditions } };
}

/** The pools as Karpenter sees them: each whose class is not among `nodeClasses` not ready. */
export function markNodeClassesNotFound(snapshot: PoolsAndClasses): NodeClassCheck {
  const known = new Set(snapshot.nodeClasses.map((c) => c.metadata.name));
  const warnings: string[] = [];
  const nodePools = snapshot.nodePools.map((pool) => {
    const className = pool.spec.template.spec.nodeClassRef.name;
    if (known.has(className)) return pool;
    warnings.push(
      `NodePool "${pool.metadata.name}" launches nothing: its EC2NodeClass "${className}" is not in the input (Karpenter reports NodeClassNotFound)`,
    );
    return markNotFound(pool);
  });
  return { nodePools, warnings };
}

/** A what-if's pools: as Karpenter sees them when some EC2NodeClasses are given but not theirs. */
export function checkNodeClasses(snapshot: PoolsAndClasses): NodeClassCheck {
  if (snapshot.nodeClasses.length === 0) return { nodePools: snapshot.nodePools, warnings: [] };
  return markNodeClassesNotFound(snapshot);
}
