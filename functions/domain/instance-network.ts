/**
 * What an instance was launched into, as EC2 describes it (aws: pkg/providers/instance/types.go,
 * `Instance`: `SubnetID`, `SecurityGroupIDs`). Drift compares it with what the instance's
 * EC2NodeClass resolves to now (aws: pkg/cloudprovider/drift.go), and the capacity reservation it
 * runs in (`CapacityReservationDetails`); a placement group is the node's label, as in Karpenter.
 */
export interface InstanceNetwork {
  readonly subnetId: string;
  /** As attached at launch, in no particular order: drift compares them as a set. */
  readonly securityGroupIds: readonly string[];
  /** The reservation it was launched into; absent on spot and on-demand instances. */
  readonly capacityReservationId?: string;
}
