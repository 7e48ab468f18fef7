/**
 * Why a managed node no longer matches what its NodePool and EC2NodeClass would launch now
 * (core: pkg/controllers/nodeclaim/disruption/drift.go; aws: pkg/cloudprovider/drift.go), first
 * reason first: the template changed, its labels no longer meet the pool's requirements, its
 * instance type or offering is gone from the catalog, the class's own spec (user data, tags,
 * disks, kubelet, …) changed since the launch, or the class resolves to another AMI, other
 * security groups, subnets, capacity reservation or placement group than the instance was
 * launched with (aws:
 * `isNodeClassDrifted`, in that order).
 */
import type { InstanceNetwork } from '../instance-network.ts';
import type { InstanceType } from '../instance-type.ts';
import type { Labels } from '../label-selector.ts';
import { Annotation, Label } from '../labels.ts';
import type { NodeClaim } from '../node-claim.ts';
import type { EC2NodeClass } from '../node-class.ts';
import type { NodePool } from '../node-pool.ts';
import { compatibilityReason, fromLabels, fromNodeSelector } from '../requirements/requirements.ts';
import { nodeClassHash } from './node-class-hash.ts';
import { templateHash } from './template-hash.ts';

export type DriftReason =
  | 'NodePoolDrifted'
  | 'RequirementsDrifted'
  | 'InstanceTypeNotFound'
  | 'AMIDrift'
  | 'SecurityGroupDrift'
  | 'SubnetDrift'
  | 'CapacityReservationDrift'
  | 'PlacementGroupDrift'
  | 'NodeClassDrifted';

export interface Drift {
  readonly reason: DriftReason;
  readonly message: string;
}

export interface DriftInput {
  readonly pool: NodePool;
  readonly nodeClass?: EC2NodeClass;
  /** The node's labels (its claim's, where the node has not joined). */
  readonly labels: Labels;
  readonly claim?: NodeClaim;
  /**
   * The pool's catalog, unavailable offerings included; none when its EC2NodeClass is missing.
   * Karpenter's drift check then stops where the provider cannot list the pool's instance types
   * (core `pkg/controllers/nodeclaim/disruption/drift.go`, `isDrifted`): the template and the
   * requirements are still compared, the catalog and the class are not.
   */
  readonly instanceTypes?: readonly InstanceType[];
  /** Karpenter checks the catalog only for nodes older than an hour: a new type may lag. */
  readonly ageMs: number;
  /**
   * What the instance was launched into. Karpenter reads it from EC2; where it is not known (a
   * node read from files), subnets and security groups are not judged.
   */
  readonly network?: InstanceNetwork;
}

const CATALOG_GRACE_MS = 60 * 60_000;

function staticDrift(pool: NodePool, claim: NodeClaim | undefined): Drift | undefined {
  const hash = claim?.metadata.annotations?.[Annotation.nodePoolHash];
  const version = claim?.metadata.annotations?.[Annotation.nodePoolHashVersion];
  if (hash === undefined || version === undefined) return undefined;
  const current = templateHash(pool);
  if (current.version !== version || current.hash === hash) return undefined;
  return { reason: 'NodePoolDrifted', message: `NodePool ${pool.metadata.name} template changed` };
}

function requirementsDrift(pool: NodePool, labels: Labels): Drift | undefined {
  const reason = compatibilityReason(
    fromLabels(labels),
    fromNodeSelector(pool.spec.template.spec.requirements),
  );
  if (reason === undefined) return undefined;
  return {
    reason: 'RequirementsDrifted',
    message: `NodePool requirements no longer met: ${reason}`,
  };
}

function catalogDrift(input: DriftInput): Drift | undefined {
  if (input.instanceTypes === undefined || input.ageMs <= CATALOG_GRACE_MS) return undefined;
  const name = input.labels[Label.instanceType];
  const type = input.instanceTypes.find((it) => it.name === name);
  const zone = input.labels[Label.zone];
  const capacityType = input.labels[Label.capacityType];
  const offered = type?.offerings.some(
    (o) =>
      (zone === undefined || o.zone === zone) &&
      (capacityType === undefined ||
        o.capacityType === capacityType ||
        (capacityType === 'reserved' && o.capacityType === 'on-demand')),
  );
  if (offered === true) return undefined;
  const what =
    type === undefined
      ? `instance type ${name ?? '(none)'}`
      : `${name} in ${zone} as ${capacityType}`;
  return { reason: 'InstanceTypeNotFound', message: `${what} is no longer offered` };
}

function amiDrift(
  nodeClass: EC2NodeClass | undefined,
  claim: NodeClaim | undefined,
): Drift | undefined {
  const image = claim?.status?.imageID;
  const amis = nodeClass?.status?.amis;
  if (image === undefined || amis === undefined || amis.length === 0) return undefined;
  if (amis.some((ami) => ami.id === image)) return undefined;
  const now = amis.map((ami) => ami.id).join(', ');
  return { reason: 'AMIDrift', message: `AMI ${image} is no longer selected (now ${now})` };
}

/**
 * Security groups drift when the instance's set is not exactly the class's (aws: drift.go,
 * `areSecurityGroupsDrifted`): one more, one fewer or another all count. A class with none
 * resolved is not judged; Karpenter reports an error and decides nothing.
 */
function securityGroupDrift(
  nodeClass: EC2NodeClass | undefined,
  network: InstanceNetwork | undefined,
): Drift | undefined {
  const selected = new Set((nodeClass?.status?.securityGroups ?? []).map((sg) => sg.id));
  if (network === undefined || selected.size === 0) return undefined;
  const attached = new Set(network.securityGroupIds);
  if (attached.size === selected.size && [...attached].every((id) => selected.has(id))) {
    return undefined;
  }
  const list = (ids: Iterable<string>) => [...ids].sort().join(', ') || '(none)';
  return {
    reason: 'SecurityGroupDrift',
    message: `security groups ${list(attached)} are no longer those selected (now ${list(selected)})`,
  };
}

/**
 * A subnet drifts when the class no longer selects it (aws: drift.go, `isSubnetDrifted`); a
 * class with none resolved is not judged.
 */
function subnetDrift(
  nodeClass: EC2NodeClass | undefined,
  network: InstanceNetwork | undefined,
): Drift | undefined {
  const subnets = nodeClass?.status?.subnets ?? [];
  if (network === undefined || subnets.length === 0) return undefined;
  if (subnets.some((subnet) => subnet.id === network.subnetId)) return undefined;
  const now = subnets.map((subnet) => subnet.id).join(', ');
  return {
    reason: 'SubnetDrift',
    message: `subnet ${network.subnetId} is no longer selected (now ${now})`,
  };
}

/**
 * A node launched into a capacity reservation the class no longer selects has drifted (aws:
 * drift.go, `isCapacityReservationDrifted`); judged from what the instance recorded, since a
 * reserved node may have become on-demand, and only once the class's reservations are resolved.
 */
function capacityReservationDrift(
  nodeClass: EC2NodeClass | undefined,
  network: InstanceNetwork | undefined,
): Drift | undefined {
  const id = network?.capacityReservationId;
  const selected = nodeClass?.status?.capacityReservations;
  if (id === undefined || selected === undefined) return undefined;
  if (selected.some((reservation) => reservation.id === id)) return undefined;
  return {
    reason: 'CapacityReservationDrift',
    message: `capacity reservation ${id} is no longer selected`,
  };
}

function nodeClassDrift(
  nodeClass: EC2NodeClass | undefined,
  claim: NodeClaim | undefined,
): Drift | undefined {
  const hash = claim?.metadata.annotations?.[Annotation.nodeClassHash];
  const version = claim?.metadata.annotations?.[Annotation.nodeClassHashVersion];
  if (nodeClass === undefined || hash === undefined || version === undefined) return undefined;
  const current = nodeClassHash(nodeClass);
  if (current.version !== version || current.hash === hash) return undefined;
  return {
    reason: 'NodeClassDrifted',
    message: `EC2NodeClass ${nodeClass.metadata.name} changed since the node was launched`,
  };
}

/**
 * The node's placement group label against the group the class resolves to now; a class that
 * selects none expects no label (aws: drift.go, `isPlacementGroupDrifted`). A class whose group
 * is not known here (read from files) is not judged.
 */
function placementGroupDrift(
  nodeClass: EC2NodeClass | undefined,
  labels: Labels,
): Drift | undefined {
  if (nodeClass === undefined) return undefined;
  const selects = nodeClass.spec.placementGroupSelector !== undefined;
  const resolved = nodeClass.status?.placementGroup;
  if (selects && resolved === undefined) return undefined;
  const now = resolved?.id ?? '';
  const launchedIn = labels[Label.placementGroupId] ?? '';
  if (launchedIn === now) return undefined;
  return {
    reason: 'PlacementGroupDrift',
    message:
      now === ''
        ? `placement group ${launchedIn} is no longer selected`
        : `placement group ${launchedIn || '(none)'} is not the selected ${now}`,
  };
}

export function driftOf(input: DriftInput): Drift | undefined {
  return (
    staticDrift(input.pool, input.claim) ??
    requirementsDrift(input.pool, input.labels) ??
    catalogDrift(input) ??
    nodeClassDrift(input.nodeClass, input.claim) ??
    amiDrift(input.nodeClass, input.claim) ??
    securityGroupDrift(input.nodeClass, input.network) ??
    subnetDrift(input.nodeClass, input.network) ??
    capacityReservationDrift(input.nodeClass, input.network) ??
    placementGroupDrift(input.nodeClass, input.labels)
  );
}
