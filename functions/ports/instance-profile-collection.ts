/**
 * The instance profiles Nodesmith made for EC2NodeClasses that name a `role`, so that those no
 * class or claim uses any more can go, as Karpenter collects its own
 * (aws/karpenter-provider-aws: pkg/controllers/nodeclass/garbagecollection). Only profiles this
 * cluster's Nodesmith created are ever listed: under its path, tagged for the cluster and region.
 */
export interface CreatedInstanceProfile {
  readonly name: string;
  /** The EC2NodeClass it was made for (its `karpenter.k8s.aws/ec2nodeclass` tag). */
  readonly nodeClass: string;
}

export interface InstanceProfileCollection {
  /** Every profile Nodesmith created for this cluster in this region. */
  listCreated(): Promise<readonly CreatedInstanceProfile[]>;
  /** Takes the profile's role out and deletes it; done when it is already gone. */
  delete(name: string): Promise<void>;
}
