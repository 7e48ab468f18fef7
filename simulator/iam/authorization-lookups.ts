/**
 * What the authorizer reads from the simulated account to build a request's context: resource
 * tags, the launch templates EC2 holds and the instance profiles IAM holds. The services that
 * hold them provide it; the authorizer never changes them.
 */
import type { RequestLaunchTemplateData } from '@aws-sdk/client-ec2';
import type { Tags } from './authorization-request.ts';

export interface StoredLaunchTemplate {
  readonly arn: string;
  readonly tags: Tags;
  /** The latest version's data, as CreateLaunchTemplate received it. */
  readonly data: RequestLaunchTemplateData;
}

export interface StoredInstanceProfile {
  /** With its path: `arn:aws:iam::111122223333:instance-profile/nodesmith/shop_123`. */
  readonly arn: string;
  readonly roleArns: readonly string[];
}

export interface AuthorizationLookups {
  /** The tags of the resource with this ARN; undefined when the account holds no such resource. */
  tagsOf(arn: string): Tags | undefined;
  launchTemplate(spec: {
    readonly LaunchTemplateId?: string;
    readonly LaunchTemplateName?: string;
  }): StoredLaunchTemplate | undefined;
  instanceProfile(name: string): StoredInstanceProfile | undefined;
  /** The name of the placement group with this id; undefined when there is none (or no id). */
  placementGroupName(id: string | undefined): string | undefined;
  /** A role's ARN, with its path, by name; undefined when the account has no such role. */
  roleArn(name: string): string | undefined;
  /** A secret's full ARN by name, partial ARN or ARN; undefined when there is no such secret. */
  secretArn(secretId: string): string | undefined;
}
