/**
 * The instance types each NodePool may launch, asked of the provider once per EC2NodeClass and
 * overlaid with the NodeOverlays: the `plan` command, the API's dry run and the controller all
 * plan from this. A pool whose class is not given has none, as Karpenter's AWS provider answers
 * `GetInstanceTypes` with an error for a NodePool whose class it cannot resolve
 * (`pkg/cloudprovider/cloudprovider.go`); the what-if commands give such pools the class
 * defaults first (default-node-classes.ts).
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

export async function instanceTypesByPool(
  request: InstanceTypesRequest,
  provider: InstanceTypeProvider,
): Promise<PoolInstanceTypes> {
  const byClass = new Map<string, Promise<readonly InstanceType[]>>();
  const out = new Map<string, readonly InstanceType[]>();
  const options = request.unavailable === undefined ? {} : { unavailable: request.unavailable };
  for (const pool of request.nodePools) {
    const className = pool.spec.template.spec.nodeClassRef.name;
    const nodeClass = request.nodeClasses.find((c) => c.metadata.name === className);
    if (nodeClass === undefined) continue;
    let types = byClass.get(className);
    if (types === undefined) {
      types = provider.instanceTypes(nodeClass, options);
      byClass.set(className, types);
    }
    out.set(pool.metadata.name, await types);
  }
  const overlaid = overlayInstanceTypes(request.nodePools, out, request.nodeOverlays ?? []);
  return { byPool: overlaid.instanceTypes, overlayConflicts: overlaid.conflicts };
}

/** The warning a conflicting overlay gets, as Karpenter marks it (ValidationSucceeded=False, Conflict). */
export function overlayConflictWarning(conflict: OverlayConflict): string {
  return `NodeOverlay ${conflict.overlay} is not applied: it conflicts with NodeOverlay ${conflict.with}, which has the same weight and sets the same price or resource`;
}
