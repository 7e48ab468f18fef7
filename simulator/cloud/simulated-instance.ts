/** An instance of the simulated cloud, with the times the report and the leak check read. */
import type { InstanceNetwork } from '../../functions/domain/instance-network.ts';
import type { CapacityType } from '../../functions/domain/labels.ts';

/** Who launched an instance: Nodesmith, or what was in the cluster before it. */
export type InstanceOrigin = 'nodesmith' | 'karpenter' | 'node-group';

export interface SimulatedInstance {
  readonly instanceId: string;
  readonly providerID: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  readonly pricePerHour: number;
  readonly nodeClaim: string;
  readonly nodePool: string;
  readonly nodeClass: string;
  /** The AMI the class resolved to at launch. */
  readonly imageId: string;
  /** The subnet of its zone and the security groups the class resolved to at launch. */
  readonly network?: InstanceNetwork;
  /** Epoch milliseconds of simulated time. */
  readonly launchedAt: number;
  terminatedAt?: number;
  readonly origin: InstanceOrigin;
  /** Carries Nodesmith's ownership tag: launched by it, or adopted. */
  owned: boolean;
}
