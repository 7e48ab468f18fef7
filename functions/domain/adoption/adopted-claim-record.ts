/**
 * Nodesmith's record of a node it adopts from Karpenter: what Karpenter's NodeClaim says of the
 * node (pool, class, requirements, labels, taints, requests, capacity), with what EC2 says of the
 * instance (its type and that type's labels, zone, capacity type, image, subnet and security
 * groups) taking precedence. It starts Initialized, as the node already is, with Karpenter's
 * creation time, so `expireAfter` counts from the same moment Karpenter's did. Karpenter's
 * template hashes are not carried: they are of another version, which static drift never
 * compares (template-hash.ts), so an adopted node drifts by its requirements, the catalog, its
 * AMI, subnet and security groups only.
 */
import type { InstanceNetwork } from '../instance-network.ts';
import { type InstanceType, instanceTypeLabels } from '../instance-type.ts';
import { Label } from '../labels.ts';
import { parseResources, type Resources } from '../resources.ts';
import {
  type ChosenOffering,
  type NewNodeClaimRecord,
  NodeClaimPhase,
} from '../state/node-claim-record.ts';
import type { AdoptionCandidate } from './karpenter-node-claim.ts';

/** The instance as EC2 describes it; a port's ManagedInstance is one. */
export interface AdoptedInstance {
  readonly instanceId: string;
  readonly providerID: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: ChosenOffering['capacityType'];
  readonly imageId?: string;
  /** Its subnet and security groups: Karpenter's drift reads them from the instance too. */
  readonly network?: InstanceNetwork;
}

/** The offering's price in the pool's catalog, else the type's cheapest, else unknown (0). */
function priceOf(types: readonly InstanceType[], instance: AdoptedInstance): number {
  const offerings = types.find((t) => t.name === instance.instanceType)?.offerings ?? [];
  const exact = offerings.find(
    (o) => o.zone === instance.zone && o.capacityType === instance.capacityType,
  );
  if (exact !== undefined) return exact.pricePerHour;
  const prices = offerings.map((o) => o.pricePerHour);
  return prices.length === 0 ? 0 : Math.min(...prices);
}

function resourcesOr(
  list: Readonly<Record<string, string | number>> | undefined,
  fallback: Resources | undefined,
): Resources | undefined {
  return list === undefined ? fallback : parseResources(list);
}

export function adoptedClaimRecord(
  { nodeClaim, node }: AdoptionCandidate,
  instance: AdoptedInstance,
  types: readonly InstanceType[],
  now: Date,
): NewNodeClaimRecord {
  const { metadata, spec, status } = nodeClaim;
  const since = metadata.creationTimestamp ?? now.toISOString();
  const nodePool = metadata.labels?.[Label.nodePool] ?? '';
  const type = types.find((t) => t.name === instance.instanceType);
  const imageId = instance.imageId ?? status?.imageID;
  const capacity = resourcesOr(status?.capacity, type?.capacity);
  const allocatable = resourcesOr(status?.allocatable, type?.allocatable);
  return {
    name: metadata.name,
    nodePool,
    nodeClass: spec.nodeClassRef.name,
    requirements: spec.requirements,
    instanceTypeOptions: [instance.instanceType],
    offering: {
      instanceType: instance.instanceType,
      zone: instance.zone,
      capacityType: instance.capacityType,
      pricePerHour: priceOf(types, instance),
    },
    labels: {
      ...metadata.labels,
      ...(type === undefined ? {} : instanceTypeLabels(type)),
      [Label.nodePool]: nodePool,
      [Label.instanceType]: instance.instanceType,
      [Label.zone]: instance.zone,
      [Label.capacityType]: instance.capacityType,
    },
    taints: spec.taints ?? [],
    startupTaints: spec.startupTaints ?? [],
    ...(spec.resources?.requests === undefined
      ? {}
      : { requests: parseResources(spec.resources.requests) }),
    ...(capacity === undefined ? {} : { capacity }),
    ...(allocatable === undefined ? {} : { allocatable }),
    instanceId: instance.instanceId,
    providerID: instance.providerID,
    ...(imageId === undefined ? {} : { imageId }),
    ...(instance.network === undefined ? {} : { network: instance.network }),
    nodeName: node.name,
    phase: NodeClaimPhase.initialized,
    timestamps: { Pending: since, Launched: since, Registered: since, Initialized: since },
    adoptedAt: now.toISOString(),
  };
}
