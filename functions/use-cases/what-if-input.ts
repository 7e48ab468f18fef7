/**
 * A what-if's planning input (`nodesmith plan`, `nodesmith disruption`, the API's dry run): the
 * snapshot's pools as Karpenter sees them when their EC2NodeClass is not given (not ready,
 * NodeClassNotFound), and the instance types each pool may use, asked of the provider with the
 * class defaults for pools whose class the input lacks and laid over with the NodeOverlays.
 */
import type { ClusterSnapshot } from '../domain/cluster-snapshot.ts';
import { type PlanningInput, planningInput } from '../domain/scheduling/planning-input.ts';
import type { InstanceTypeProvider } from '../ports/cloud-provider.ts';
import { withDefaultNodeClasses } from './default-node-classes.ts';
import { instanceTypesByPool, overlayConflictWarning } from './instance-types-by-pool.ts';
import { checkNodeClasses } from './node-class-not-found.ts';

export interface WhatIfInput {
  readonly input: PlanningInput;
  /** Pools whose class is missing, overlays left out. */
  readonly warnings: readonly string[];
}

export async function whatIfInput(
  snapshot: ClusterSnapshot,
  region: string,
  provider: InstanceTypeProvider,
): Promise<WhatIfInput> {
  const { nodePools, warnings: missing } = checkNodeClasses(snapshot);
  const nodeClasses = withDefaultNodeClasses(snapshot);
  const types = await instanceTypesByPool({ ...snapshot, nodePools, nodeClasses }, provider);
  return {
    input: planningInput({ ...snapshot, nodePools }, { instanceTypes: types.byPool, region }),
    warnings: [...missing, ...types.overlayConflicts.map(overlayConflictWarning)],
  };
}
