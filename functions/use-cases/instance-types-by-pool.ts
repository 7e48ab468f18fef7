/**
 * The instance types each NodePool may launch, asked of the provider once per EC2NodeClass and
 * overlaid with the NodeOverlays: the `plan` command, the API's dry run and the controller all
 * plan from this. A pool whose class is not given has none, as Karpenter's AWS provider answers
 * `GetInstanceTypes` with an error for a NodePool whose class it cannot resolve
 * (`pkg/cloudprovider/cloudprovider.go`), and so does a class the provider finds not ready;
 * the what-if commands give pools without a class the class defaults first
 * (default-node-classes.ts).
 */
import type { InstanceType } from '../domain/instance-type.ts';
import type { EC2NodeClass } from '../domain/node-class.ts';
import type { NodePool } from '../domain/node-pool.ts';
import type { NodeOverlay } from '../domain/overlays/node-overlay.ts';
import {
  type OverlayConflict,
  overlayInstanceTypes,
} from '../domain/overlays/overlaid-instance-types.ts';
import type { OfferingKey } from '../domain/state/unavailable-offering.ts';
import type { InstanceTypeProvider } from '../ports/cloud-provider.ts';
import { NodeClassNotReadyError } from '../ports/errors.ts';

export interface InstanceTypesRequest {
  readonly nodePools: readonly NodePool[];
  readonly nodeClasses: readonly EC2NodeClass[];
  readonly nodeOverlays?: readonly NodeOverlay[];
  /** Offerings recently out of capacity. */
  readonly unavailable?: readonly OfferingKey[];
}

export interface PoolInstanceTypes {
  readonly byPool: ReadonlyMap<string, readonly InstanceType[]>;
  /** NodeOverlays left out, each for targeting what one of the same weight targets. */
  readonly overlayConflicts: readonly OverlayConflict[];
}

/**
 * A class that cannot be resolved now (its placement group is gone, say) gives its pools no
 * instance types, as a missing class does, rather than failing every pool's plan.
 */
function notReadyAsNone(err: unknown): undefined {
  if (err instanceof NodeClassNotReadyError) return undefined;
  throw err;
}

export async function instanceTypesByPool(
  request: InstanceTypesRequest,
  provider: InstanceTypeProvider,
): Promise<PoolInstanceTypes> {
  const byClass = new Map<string, Promise<readonly InstanceType[] | undefined>>();
  const out = new Map<string, readonly InstanceType[]>();
  const options = request.unavailable === undefined ? {} : { unavailable: request.unavailable };
  for (const pool of request.nodePools) {
    const className = pool.spec.template.spec.nodeClassRef.name;
    const nodeClass = request.nodeClasses.find((c) => c.metadata.name === className);
    if (nodeClass === undefined) continue;
    let types = byClass.get(className);
    if (types === undefined) {
      types = provider.instanceTypes(nodeClass, options).catch(notReadyAsNone);
      byClass.set(className, types);
    }
    const listed = await types;
    if (listed !== undefined) out.set(pool.metadata.name, listed);
  }
  const overlaid = overlayInstanceTypes(request.nodePools, out, request.nodeOverlays ?? []);
  return { byPool: overlaid.instanceTypes, overlayConflicts: overlaid.conflicts };
}

/** The warning a conflicting overlay gets, as Karpenter marks it (ValidationSucceeded=False, Conflict). */
export function overlayConflictWarning(conflict: OverlayConflict): string {
  return `NodeOverlay ${conflict.overlay} is not applied: it conflicts with NodeOverlay ${conflict.with}, which has the same weight and sets the same price or resource`;
}
