/**
 * NodePools whose EC2NodeClass is not in a what-if input. Karpenter's readiness controller marks
 * such a NodePool `NodeClassReady=False` (reason `NodeClassNotFound`, core
 * `pkg/controllers/nodepool/readiness/controller.go`), so it is not ready and launches nothing;
 * a plan that assumed a default class instead would answer for a cluster that does not exist.
 * An input with no EC2NodeClass at all describes pools only (a what-if written by hand): its
 * pools keep planning with the class defaults, as `defaultNodeClass` gives them.
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

function markNotFound(pool: NodePool): NodePool {
  const others = (pool.status?.conditions ?? []).filter((c) => c.type !== 'Ready');
  const conditions = [...others, nodeClassNotFound(pool)];
  return { ...pool, status: { ...pool.status, conditions } };
}

/** The pools as Karpenter sees them when some EC2NodeClasses are given but not theirs. */
export function checkNodeClasses(snapshot: {
  readonly nodePools: readonly NodePool[];
  readonly nodeClasses: readonly EC2NodeClass[];
}): NodeClassCheck {
  if (snapshot.nodeClasses.length === 0) return { nodePools: snapshot.nodePools, warnings: [] };
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
