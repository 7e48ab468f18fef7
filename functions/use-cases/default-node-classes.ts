/**
 * The class defaults the what-if commands fall back on (`plan`, `disruption`, the API's dry run,
 * `simulate -f`): a pool whose EC2NodeClass is not in the input is still priced with them, and an
 * input that holds no class at all plans and launches with them (node-class-not-found.ts). The
 * controller never does: a pool whose class is not stored is not ready, and a launch whose class
 * is not stored is refused.
 */
import type { EC2NodeClass } from '../domain/node-class.ts';
import type { NodePool } from '../domain/node-pool.ts';
import type { LaunchableNodeClass } from '../ports/cloud-provider.ts';

/** A class nobody gave: its defaults, as Karpenter would apply them (AL2023). */
export function defaultNodeClass(name: string): LaunchableNodeClass {
  return { metadata: { name }, spec: {} };
}

/** The classes given, and the defaults of each class a pool names that is not among them. */
export function withDefaultNodeClasses(snapshot: {
  readonly nodePools: readonly NodePool[];
  readonly nodeClasses: readonly EC2NodeClass[];
}): EC2NodeClass[] {
  const given = new Set(snapshot.nodeClasses.map((c) => c.metadata.name));
  const named = new Set(snapshot.nodePools.map((p) => p.spec.template.spec.nodeClassRef.name));
  const missing = [...named].filter((name) => !given.has(name));
  return [...snapshot.nodeClasses, ...missing.map(defaultNodeClass)];
}
