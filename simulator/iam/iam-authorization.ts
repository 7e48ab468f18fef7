/**
 * What IAM authorizes for the instance profile calls Nodesmith makes (Service Authorization
 * Reference, AWS Identity and Access Management). A profile is named in a call by name alone:
 * IAM authorizes on the ARN of the profile it holds, path included, and on the path-less
 * `instance-profile/<name>` for a profile it does not hold yet, so a policy scoped to a path
 * never reaches a profile before it exists. Creating with tags also authorizes
 * `iam:TagInstanceProfile`; putting a role in a profile passes it (`iam:PassRole`, to EC2, which
 * launches with the profile).
 */
import type {
  AddRoleToInstanceProfileCommandInput,
  CreateInstanceProfileCommandInput,
  ListInstanceProfilesCommandInput,
} from '@aws-sdk/client-iam';
import type { AuthorizationLookups } from './authorization-lookups.ts';
import {
  type Authorization,
  type CallPlace,
  requestTags,
  resourceTags,
} from './authorization-request.ts';

function iamArn(place: CallPlace, resource: string): string {
  return `arn:${place.partition}:iam::${place.accountId}:${resource}`;
}

function profileArn(name: string, place: CallPlace, lookups: AuthorizationLookups): string {
  return lookups.instanceProfile(name)?.arn ?? iamArn(place, `instance-profile/${name}`);
}

/** An action on a profile named in the input, with the tags the profile holds. */
function onProfile(action: string) {
  return (
    input: { readonly InstanceProfileName?: string },
    place: CallPlace,
    lookups: AuthorizationLookups,
  ): Authorization[] => {
    const resource = profileArn(input.InstanceProfileName ?? '', place, lookups);
    return [{ action, resource, context: resourceTags(lookups.tagsOf(resource), 'iam') }];
  };
}

function createInstanceProfile(input: CreateInstanceProfileCommandInput, place: CallPlace) {
  const resource = iamArn(
    place,
    `instance-profile${input.Path ?? '/'}${input.InstanceProfileName}`,
  );
  const tags = Object.fromEntries(
    (input.Tags ?? []).map((tag) => [tag.Key ?? '', tag.Value ?? '']),
  );
  const context = requestTags(tags);
  const tagging = (input.Tags ?? []).length === 0 ? [] : ['iam:TagInstanceProfile'];
  return ['iam:CreateInstanceProfile', ...tagging].map((action) => ({ action, resource, context }));
}

function addRoleToInstanceProfile(
  input: AddRoleToInstanceProfileCommandInput,
  place: CallPlace,
  lookups: AuthorizationLookups,
): Authorization[] {
  const role = lookups.roleArn(input.RoleName ?? '') ?? iamArn(place, `role/${input.RoleName}`);
  return [
    ...onProfile('iam:AddRoleToInstanceProfile')(input, place, lookups),
    {
      action: 'iam:PassRole',
      resource: role,
      context: { 'iam:PassedToService': 'ec2.amazonaws.com' },
    },
  ];
}

function listInstanceProfiles(input: ListInstanceProfilesCommandInput, place: CallPlace) {
  const resource = iamArn(place, `instance-profile${input.PathPrefix ?? '/'}`);
  return [{ action: 'iam:ListInstanceProfiles', resource, context: {} }];
}

type IamOperation = (
  input: never,
  place: CallPlace,
  lookups: AuthorizationLookups,
) => Authorization[];

export const IAM_AUTHORIZATIONS: Readonly<Record<string, IamOperation>> = {
  GetInstanceProfile: onProfile('iam:GetInstanceProfile'),
  ListInstanceProfileTags: onProfile('iam:ListInstanceProfileTags'),
  RemoveRoleFromInstanceProfile: onProfile('iam:RemoveRoleFromInstanceProfile'),
  DeleteInstanceProfile: onProfile('iam:DeleteInstanceProfile'),
  CreateInstanceProfile: createInstanceProfile,
  AddRoleToInstanceProfile: addRoleToInstanceProfile,
  ListInstanceProfiles: listInstanceProfiles,
};
