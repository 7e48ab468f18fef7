/**
 * IAM as the simulated account serves it over the AWS query protocol (docs/design.md §9): the
 * roles the account holds (the node role among them) and the instance profiles the controller
 * makes for EC2NodeClasses that name a `role`. Answers as IAM does: `NoSuchEntity` (404) for a
 * profile or role it has not, `EntityAlreadyExists` (409), `LimitExceeded` (409) for a second
 * role in a profile, `DeleteConflict` (409) for a profile that still holds one; listings paged
 * by `Marker`.
 */
import {
  AddRoleToInstanceProfile$,
  type AddRoleToInstanceProfileCommandInput,
  CreateInstanceProfile$,
  type CreateInstanceProfileCommandInput,
  DeleteInstanceProfile$,
  type DeleteInstanceProfileCommandInput,
  GetInstanceProfile$,
  type InstanceProfile,
  ListInstanceProfiles$,
  type ListInstanceProfilesCommandInput,
  ListInstanceProfileTags$,
  RemoveRoleFromInstanceProfile$,
  type RemoveRoleFromInstanceProfileCommandInput,
  type Role,
  type Tag,
  TagInstanceProfile$,
  type TagInstanceProfileCommandInput,
} from '@aws-sdk/client-iam';
import { AwsError, type AwsOperation } from '../aws-service.ts';
import { QueryService } from '../query/query-service.ts';

const OPERATIONS = {
  AddRoleToInstanceProfile: AddRoleToInstanceProfile$,
  CreateInstanceProfile: CreateInstanceProfile$,
  DeleteInstanceProfile: DeleteInstanceProfile$,
  GetInstanceProfile: GetInstanceProfile$,
  ListInstanceProfiles: ListInstanceProfiles$,
  ListInstanceProfileTags: ListInstanceProfileTags$,
  RemoveRoleFromInstanceProfile: RemoveRoleFromInstanceProfile$,
  TagInstanceProfile: TagInstanceProfile$,
};

export interface IamServiceOptions {
  readonly accountId: string;
  /** The roles the account holds, by name: the node role instance profiles are made for. */
  readonly roles: readonly string[];
  readonly now: () => Date;
}

interface StoredProfile {
  readonly profile: Omit<InstanceProfile, 'Roles'>;
  roles: string[];
  tags: Tag[];
}

/** IAM's default and largest page. */
const MAX_ITEMS = 100;

function noSuchProfile(name: string | undefined): AwsError {
  return new AwsError('NoSuchEntity', `Instance Profile ${name} cannot be found.`, 404);
}

/** An id as IAM writes them: a prefix and 17 characters, the same for the same name. */
function iamId(prefix: string, name: string): string {
  const digits = [...name].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);
  return `${prefix}${digits.toString(36).toUpperCase().padStart(17, '0').slice(-17)}`;
}

export class IamService extends QueryService {
  readonly #options: IamServiceOptions;
  readonly #roles: ReadonlyMap<string, Role>;
  readonly #profiles = new Map<string, StoredProfile>();

  constructor(options: IamServiceOptions) {
    super(
      { signingName: 'iam', actionPrefix: 'iam' },
      {
        operations: OPERATIONS,
        xmlNamespace: 'https://iam.amazonaws.com/doc/2010-05-08/',
        ec2: false,
      },
    );
    this.#options = options;
    const created = options.now();
    this.#roles = new Map(
      options.roles.map((RoleName) => [
        RoleName,
        {
          RoleName,
          RoleId: iamId('AROA', RoleName),
          Path: '/',
          Arn: `arn:aws:iam::${options.accountId}:role/${RoleName}`,
          CreateDate: created,
        },
      ]),
    );
  }

  override async invoke(operation: AwsOperation): Promise<unknown> {
    const input = operation.input as never;
    switch (operation.name as keyof typeof OPERATIONS) {
      case 'AddRoleToInstanceProfile':
        return this.#addRole(input);
      case 'CreateInstanceProfile':
        return this.#create(input);
      case 'DeleteInstanceProfile':
        return this.#delete(input);
      case 'GetInstanceProfile':
        return { InstanceProfile: this.#view(this.#profile(input)) };
      case 'ListInstanceProfiles':
        return this.#list(input);
      case 'ListInstanceProfileTags':
        return { Tags: this.#profile(input).tags, IsTruncated: false };
      case 'RemoveRoleFromInstanceProfile':
        return this.#removeRole(input);
      case 'TagInstanceProfile':
        return this.#tag(input);
    }
  }

  /** The tags of the instance profile or role an ARN names, for the authorizer. */
  tagsOf(arn: string): Readonly<Record<string, string>> | undefined {
    const name = arn.slice(arn.lastIndexOf('/') + 1);
    if (arn.includes(':role/')) return this.#roles.has(name) ? {} : undefined;
    const stored = arn.includes(':instance-profile/') ? this.#profiles.get(name) : undefined;
    return stored === undefined
      ? undefined
      : Object.fromEntries(stored.tags.map((tag) => [tag.Key ?? '', tag.Value ?? '']));
  }

  /** An instance profile as the authorizer reads it: its ARN and the roles it holds. */
  instanceProfile(name: string) {
    const stored = this.#profiles.get(name);
    if (stored === undefined) return undefined;
    return {
      arn: stored.profile.Arn ?? '',
      roleArns: stored.roles.map((role) => this.#roles.get(role)?.Arn ?? ''),
    };
  }

  roleArn(name: string): string | undefined {
    return this.#roles.get(name)?.Arn;
  }

  #profile(input: { InstanceProfileName?: string }): StoredProfile {
    const stored = this.#profiles.get(input.InstanceProfileName ?? '');
    if (stored === undefined) throw noSuchProfile(input.InstanceProfileName);
    return stored;
  }

  #role(name: string | undefined): Role {
    const role = this.#roles.get(name ?? '');
    if (role === undefined) {
      throw new AwsError('NoSuchEntity', `The role with name ${name} cannot be found.`, 404);
    }
    return role;
  }

  #view(stored: StoredProfile): InstanceProfile {
    return { ...stored.profile, Roles: stored.roles.map((name) => this.#role(name)) };
  }

  #create(input: CreateInstanceProfileCommandInput) {
    const name = input.InstanceProfileName ?? '';
    if (this.#profiles.has(name)) {
      throw new AwsError('EntityAlreadyExists', `Instance Profile ${name} already exists.`, 409);
    }
    const path = input.Path ?? '/';
    const stored: StoredProfile = {
      profile: {
        InstanceProfileName: name,
        InstanceProfileId: iamId('AIPA', name),
        Path: path,
        Arn: `arn:aws:iam::${this.#options.accountId}:instance-profile${path}${name}`,
        CreateDate: this.#options.now(),
      },
      roles: [],
      tags: [...(input.Tags ?? [])],
    };
    this.#profiles.set(name, stored);
    return { InstanceProfile: this.#view(stored) };
  }

  #delete(input: DeleteInstanceProfileCommandInput) {
    const stored = this.#profile(input);
    if (stored.roles.length > 0) {
      throw new AwsError(
        'DeleteConflict',
        'Cannot delete entity, must remove roles from instance profile first.',
        409,
      );
    }
    this.#profiles.delete(input.InstanceProfileName ?? '');
    return {};
  }

  #addRole(input: AddRoleToInstanceProfileCommandInput) {
    const stored = this.#profile(input);
    const role = this.#role(input.RoleName);
    if (stored.roles.length > 0) {
      throw new AwsError(
        'LimitExceeded',
        'Cannot exceed quota for InstanceSessionsPerInstanceProfile: 1',
        409,
      );
    }
    stored.roles = [role.RoleName ?? ''];
    return {};
  }

  #removeRole(input: RemoveRoleFromInstanceProfileCommandInput) {
    const stored = this.#profile(input);
    if (!stored.roles.includes(input.RoleName ?? '')) {
      throw new AwsError(
        'NoSuchEntity',
        `The role with name ${input.RoleName} cannot be found in instance profile ${input.InstanceProfileName}.`,
        404,
      );
    }
    stored.roles = stored.roles.filter((name) => name !== input.RoleName);
    return {};
  }

  #tag(input: TagInstanceProfileCommandInput) {
    const stored = this.#profile(input);
    const keys = new Set((input.Tags ?? []).map((t) => t.Key));
    stored.tags = [...stored.tags.filter((t) => !keys.has(t.Key)), ...(input.Tags ?? [])];
    return {};
  }

  #list(input: ListInstanceProfilesCommandInput) {
    const prefix = input.PathPrefix ?? '/';
    const all = [...this.#profiles.values()]
      .filter((stored) => (stored.profile.Path ?? '/').startsWith(prefix))
      .sort((a, b) =>
        (a.profile.InstanceProfileName ?? '') < (b.profile.InstanceProfileName ?? '') ? -1 : 1,
      );
    const start = input.Marker === undefined ? 0 : Number(input.Marker);
    const end = start + Math.min(input.MaxItems ?? MAX_ITEMS, MAX_ITEMS);
    const truncated = end < all.length;
    return {
      InstanceProfiles: all.slice(start, end).map((stored) => this.#view(stored)),
      IsTruncated: truncated,
      ...(truncated ? { Marker: String(end) } : {}),
    };
  }
}
