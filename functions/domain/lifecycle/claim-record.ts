/**
 * NodeClaim records as provisioning writes them: the intent recorded before a launch, built
 * from a planned claim, and the same record once EC2 has filled it (core
 * nodeclaimtemplate.go `ToNodeClaim` and lifecycle/launch.go `PopulateNodeClaimDetails`).
 */
import type { InstanceNetwork } from '../instance-network.ts';
import { type InstanceType, instanceTypeLabels, RESERVATION_LABELS } from '../instance-type.ts';
import type { Labels } from '../label-selector.ts';
import { type CapacityType, Label } from '../labels.ts';
import { toNodeSelector } from '../requirements/requirements.ts';
import type { PlannedNodeClaim } from '../scheduling/provisioning-plan.ts';
import { reservationLabels } from '../scheduling/reservation-labels.ts';
import type { NewNodeClaimRecord, NodeClaimRecord } from '../state/node-claim-record.ts';

/** What EC2 filled: a port's LaunchedInstance is one. */
export interface Launch {
  readonly instanceId: string;
  readonly providerID: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  readonly imageId?: string;
  readonly network?: InstanceNetwork;
}

/**
 * The record written `Pending` before the launch. Its capacity is the cheapest option's, as the
 * planner packed it; the options all hold the same pods, so any of them can be launched.
 */
export function pendingClaimRecord(
  planned: PlannedNodeClaim,
  name: string,
  now: Date,
  stamps: Pick<NewNodeClaimRecord, 'nodePoolHash' | 'nodeClassHash' | 'annotations'> = {},
): NewNodeClaimRecord {
  const options = planned.instanceTypeOptions.map((it) => it.name);
  return {
    name,
    nodePool: planned.nodePool,
    nodeClass: planned.nodeClass,
    requirements: [
      ...toNodeSelector(planned.requirements).filter((r) => r.key !== Label.instanceType),
      { key: Label.instanceType, operator: 'In', values: options },
    ],
    instanceTypeOptions: options,
    offering: {
      instanceType: planned.instanceType.name,
      zone: planned.offering.zone,
      capacityType: planned.offering.capacityType,
      pricePerHour: planned.offering.pricePerHour,
    },
    labels: { ...planned.labels, [Label.nodePool]: planned.nodePool },
    taints: planned.taints,
    startupTaints: planned.startupTaints,
    requests: planned.requests,
    capacity: planned.instanceType.capacity,
    allocatable: planned.instanceType.allocatable,
    ...(stamps.annotations === undefined ? {} : { annotations: stamps.annotations }),
    ...(stamps.nodePoolHash === undefined ? {} : { nodePoolHash: stamps.nodePoolHash }),
    ...(stamps.nodeClassHash === undefined ? {} : { nodeClassHash: stamps.nodeClassHash }),
    phase: 'Pending',
    timestamps: { Pending: now.toISOString() },
  };
}

/**
 * The labels a node of the launched offering carries: the claim's own, with the predicted
 * type's labels replaced by the launched type's.
 */
function launchedLabels(
  claim: NodeClaimRecord,
  launch: Launch,
  types: readonly InstanceType[],
): Labels {
  const labels: Record<string, string> = { ...claim.labels };
  const predicted = types.find((it) => it.name === claim.offering.instanceType);
  if (predicted !== undefined) {
    for (const key of Object.keys(instanceTypeLabels(predicted))) delete labels[key];
  }
  const launched = types.find((it) => it.name === launch.instanceType);
  if (launched !== undefined) Object.assign(labels, instanceTypeLabels(launched));
  if (launch.zone !== claim.offering.zone) delete labels[Label.zoneId];
  labels[Label.instanceType] = launch.instanceType;
  labels[Label.zone] = launch.zone;
  labels[Label.capacityType] = launch.capacityType;
  for (const key of RESERVATION_LABELS) delete labels[key];
  const reservationId = launch.network?.capacityReservationId;
  const reserved = launched?.offerings.find((o) => o.reservationId === reservationId);
  if (reservationId === undefined) return labels;
  // The reservation's type and interruptibility come from its offering; its id from EC2.
  if (reserved !== undefined) Object.assign(labels, reservationLabels(reserved));
  labels[Label.capacityReservationId] = reservationId;
  return labels;
}

/**
 * The record once launched: the instance, the offering EC2 filled (the fleet may pick another
 * option than the cheapest) priced as the planner priced it, and that type's capacity.
 */
export function launchedClaimRecord(
  claim: NodeClaimRecord,
  launch: Launch,
  types: readonly InstanceType[],
  now: Date,
): NodeClaimRecord {
  const type = types.find((it) => it.name === launch.instanceType);
  const offering = type?.offerings.find(
    (o) => o.zone === launch.zone && o.capacityType === launch.capacityType,
  );
  return {
    ...claim,
    instanceId: launch.instanceId,
    providerID: launch.providerID,
    ...(launch.imageId === undefined ? {} : { imageId: launch.imageId }),
    ...(launch.network === undefined ? {} : { network: launch.network }),
    offering: {
      instanceType: launch.instanceType,
      zone: launch.zone,
      capacityType: launch.capacityType,
      pricePerHour: offering?.pricePerHour ?? claim.offering.pricePerHour,
    },
    labels: launchedLabels(claim, launch, types),
    capacity: type?.capacity ?? claim.capacity,
    allocatable: type?.allocatable ?? claim.allocatable,
    phase: 'Launched',
    timestamps: { ...claim.timestamps, Launched: now.toISOString() },
  };
}
