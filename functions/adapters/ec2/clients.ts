/**
 * The SDK clients the EC2 adapter talks through (docs/design.md §2.3): tests pass real clients
 * under aws-sdk-client-mock, and the composition root builds them. EC2 and Pricing are whole
 * clients because the SDK's paginators accept nothing else.
 */
import type { EC2Client } from '@aws-sdk/client-ec2';
import type { IAMClient } from '@aws-sdk/client-iam';
import type { PricingClient } from '@aws-sdk/client-pricing';
import type { SSMClient } from '@aws-sdk/client-ssm';

export type Ec2Api = EC2Client;
export type SsmApi = Pick<SSMClient, 'send'>;
/** IAM is global: any region of the partition answers. */
export type IamApi = Pick<IAMClient, 'send'>;
/**
 * The Pricing API answers only in a few regions: build the client in us-east-1, or ap-south-1
 * for `ap-*`, eu-central-1 for `eu-*` and cn-northwest-1 for `cn-*` regions, as Karpenter does.
 */
export type PricingApi = PricingClient;

/** The adapter's clock: every cache, timestamp and signature reads it, nothing calls `Date.now()`. */
export type { Now } from '../cache/ttl-cache.ts';
