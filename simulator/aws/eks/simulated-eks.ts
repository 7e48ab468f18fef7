/**
 * The account's EKS clusters as DescribeCluster describes them: active, at a Kubernetes version,
 * with a service range, and with the endpoint of the simulated Kubernetes API server, given to
 * the model because the API server listens before or after the account is built.
 */

import { CERTIFICATE_AUTHORITY_DATA } from '../../api-server/serving-certificate.ts';
import { AwsError } from '../aws-service.ts';

export interface SimulatedClusterSpec {
  readonly name: string;
  /** @default '1.31' */
  readonly version?: string;
  /** @default '10.100.0.0/16', EKS's default when the VPC does not use it */
  readonly serviceIpv4Cidr?: string;
}

export interface SimulatedEksOptions {
  readonly region: string;
  readonly account: string;
  readonly now: () => number;
  /** The simulated API server's URL, read when a cluster is described. */
  readonly apiServerUrl: () => string;
  /** Base64 of the PEM bundle clients trust the API server by. @default its serving certificate */
  readonly certificateAuthorityData?: string;
}

interface StoredCluster extends Required<SimulatedClusterSpec> {
  readonly createdAt: number;
}

export class SimulatedEks {
  readonly #options: SimulatedEksOptions;
  readonly #clusters = new Map<string, StoredCluster>();

  constructor(options: SimulatedEksOptions) {
    this.#options = options;
  }

  createCluster(spec: SimulatedClusterSpec): void {
    this.#clusters.set(spec.name, {
      version: '1.31',
      serviceIpv4Cidr: '10.100.0.0/16',
      ...spec,
      createdAt: this.#options.now(),
    });
  }

  /** The cluster in DescribeCluster's `cluster` shape; ResourceNotFoundException for no such name. */
  describe(name: string): Record<string, unknown> {
    const cluster = this.#clusters.get(name);
    if (cluster === undefined) {
      throw new AwsError('ResourceNotFoundException', `No cluster found for name: ${name}.`, 404);
    }
    const { region, account, apiServerUrl, certificateAuthorityData } = this.#options;
    return {
      name,
      arn: `arn:aws:eks:${region}:${account}:cluster/${name}`,
      // The REST-JSON protocol sends timestamps as epoch seconds.
      createdAt: cluster.createdAt / 1000,
      version: cluster.version,
      endpoint: apiServerUrl(),
      roleArn: `arn:aws:iam::${account}:role/${name}-cluster`,
      status: 'ACTIVE',
      certificateAuthority: { data: certificateAuthorityData ?? CERTIFICATE_AUTHORITY_DATA },
      kubernetesNetworkConfig: { serviceIpv4Cidr: cluster.serviceIpv4Cidr, ipFamily: 'ipv4' },
      accessConfig: { authenticationMode: 'API' },
      platformVersion: 'eks.1',
    };
  }
}
