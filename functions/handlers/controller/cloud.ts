/**
 * The controller's AWS side beyond its state: EC2, with SSM for AMI aliases and the Price List
 * API, behind the CloudProvider port, and IAM for the instance profiles of EC2NodeClasses that
 * name a `role`. The composition root loads this module with the first pass, not at import
 * (docs/design.md §7.1): the EC2 client's schemas and the bundled catalog were most of what the
 * controller compiled as it started. Every pass needs them, so the first pass pays for them now;
 * the split bundle (lib/function-bundling.ts) keeps them in files the import never reads.
 */
import { EC2Client } from '@aws-sdk/client-ec2';
import { IAMClient } from '@aws-sdk/client-iam';
import { PricingClient } from '@aws-sdk/client-pricing';
import { SSMClient } from '@aws-sdk/client-ssm';
import type { ClusterSettings } from '../../adapters/ec2/cluster-settings.ts';
import { Ec2CloudProvider } from '../../adapters/ec2/ec2-cloud-provider.ts';
import { IamInstanceProfileCollection } from '../../adapters/ec2/iam-instance-profile-collection.ts';
import { IamInstanceProfileProvisioner } from '../../adapters/ec2/iam-instance-profile-provisioner.ts';
import type { CloudProvider } from '../../ports/cloud-provider.ts';
import type { InstanceProfileCollection } from '../../ports/instance-profile-collection.ts';

export interface ControllerCloudOptions {
  readonly region: string;
  readonly clusterName: string;
  readonly now: () => Date;
  /** Told about refreshes that failed while last good (or bundled) data was served. */
  readonly onRefreshError: (err: unknown, what: string) => void;
}

/** One per container: IAM's client is shared by making instance profiles and collecting them. */
export class ControllerCloud {
  readonly profiles: InstanceProfileCollection;
  readonly #options: ControllerCloudOptions;
  readonly #iam: IAMClient;

  constructor(options: ControllerCloudOptions) {
    this.#options = options;
    this.#iam = new IAMClient({ region: options.region });
    this.profiles = new IamInstanceProfileCollection(this.#iam, {
      name: options.clusterName,
      region: options.region,
    });
  }

  /** The CloudProvider for the cluster's launch settings, with clients of its own. */
  provider(cluster: ClusterSettings): CloudProvider {
    const { region, now, onRefreshError } = this.#options;
    return new Ec2CloudProvider({
      ec2: new EC2Client({ region }),
      ssm: new SSMClient({ region }),
      // The Price List API answers in us-east-1 (and two other regions) only.
      pricing: new PricingClient({ region: 'us-east-1' }),
      cluster,
      now,
      instanceProfiles: new IamInstanceProfileProvisioner(this.#iam),
      onRefreshError,
    });
  }
}
