/**
 * The instance profile provisioner on IAM, as Karpenter's instance profile provider works (aws:
 * pkg/providers/instanceprofile): read the profile by name, create it when IAM has none, and make
 * the class's role its one role. Every step is safe to repeat and to race: a profile or a role
 * that another invocation put in place first counts as done. How often it is asked is up to
 * `InstanceProfiles`, which caches for Karpenter's 15 minutes.
 *
 * @example
 * const instanceProfiles = new IamInstanceProfileProvisioner(new IAMClient({ region }));
 * const cloud = new Ec2CloudProvider({ ec2, ssm, pricing, cluster, now, instanceProfiles });
 */
import {
  AddRoleToInstanceProfileCommand,
  CreateInstanceProfileCommand,
  GetInstanceProfileCommand,
  RemoveRoleFromInstanceProfileCommand,
} from '@aws-sdk/client-iam';
import type { IamApi } from './clients.ts';
import { isIamAlreadyExists, isIamLimitExceeded, isIamNotFound, toIamPortError } from './errors.ts';
import type { InstanceProfileProvisioner, InstanceProfileRequest } from './instance-profiles.ts';
import { toTags } from './mappers.ts';

/** Where Nodesmith's profiles live, so an IAM policy can scope the profile actions to them. */
export const INSTANCE_PROFILE_PATH = '/nodesmith/';

/** AddRoleToInstanceProfile takes a bare role name: `nodes/KarpenterNodeRole` is `KarpenterNodeRole`. */
function roleNameOf(role: string): string {
  return role.slice(role.lastIndexOf('/') + 1);
}

function holdsOnly(roles: readonly string[] | undefined, role: string): boolean {
  return roles?.length === 1 && roles[0] === role;
}

export class IamInstanceProfileProvisioner implements InstanceProfileProvisioner {
  readonly #iam: IamApi;

  constructor(iam: IamApi) {
    this.#iam = iam;
  }

  async ensure(request: InstanceProfileRequest): Promise<void> {
    const role = roleNameOf(request.role);
    const held = await this.#rolesOrCreate(request);
    if (holdsOnly(held, role)) return;
    // A profile holds at most one role, so the one there must go before the class's goes in.
    for (const other of held) await this.#removeRole(request.name, other);
    await this.#addRole(request.name, role);
  }

  /** The roles the profile holds; none when it had to be created. */
  async #rolesOrCreate(request: InstanceProfileRequest): Promise<readonly string[]> {
    const held = await this.#roles(request.name);
    if (held !== undefined) return held;
    if (await this.#create(request)) return [];
    // Another invocation created it between the read and the create: go on from what it holds.
    // IAM may not show the new profile yet; then it holds nothing this one could know about.
    return (await this.#roles(request.name)) ?? [];
  }

  /** The names of the roles the profile holds, or undefined when IAM has no such profile. */
  async #roles(name: string): Promise<readonly string[] | undefined> {
    try {
      const output = await this.#iam.send(
        new GetInstanceProfileCommand({ InstanceProfileName: name }),
      );
      return (output.InstanceProfile?.Roles ?? []).map((role) => role.RoleName ?? '');
    } catch (err) {
      if (isIamNotFound(err)) return undefined;
      throw toIamPortError(err, {
        doing: `getting instance profile ${name}`,
        permission: 'iam:GetInstanceProfile',
      });
    }
  }

  /** Whether this call created the profile; false when another caller had already. */
  async #create({ name, tags }: InstanceProfileRequest): Promise<boolean> {
    try {
      await this.#iam.send(
        new CreateInstanceProfileCommand({
          InstanceProfileName: name,
          Path: INSTANCE_PROFILE_PATH,
          Tags: toTags(tags),
        }),
      );
      return true;
    } catch (err) {
      if (isIamAlreadyExists(err)) return false;
      throw toIamPortError(err, {
        doing: `creating instance profile ${name}`,
        // Tags in the create request are authorized as a separate action.
        permission: 'iam:CreateInstanceProfile and iam:TagInstanceProfile',
      });
    }
  }

  async #removeRole(name: string, role: string): Promise<void> {
    try {
      await this.#iam.send(
        new RemoveRoleFromInstanceProfileCommand({ InstanceProfileName: name, RoleName: role }),
      );
    } catch (err) {
      // Someone else took it out already, which is what was wanted.
      if (isIamNotFound(err)) return;
      throw toIamPortError(err, {
        doing: `removing role ${role} from instance profile ${name}`,
        permission: 'iam:RemoveRoleFromInstanceProfile',
      });
    }
  }

  async #addRole(name: string, role: string): Promise<void> {
    try {
      await this.#iam.send(
        new AddRoleToInstanceProfileCommand({ InstanceProfileName: name, RoleName: role }),
      );
    } catch (err) {
      // The profile's one place is taken: by this role, when a concurrent ensure added it first.
      if (isIamLimitExceeded(err) && holdsOnly(await this.#roles(name), role)) return;
      throw toIamPortError(err, {
        doing: `adding role ${role} to instance profile ${name}`,
        // Putting a role in a profile passes it to whatever launches with the profile.
        permission: `iam:AddRoleToInstanceProfile and iam:PassRole on role ${role}`,
      });
    }
  }
}
