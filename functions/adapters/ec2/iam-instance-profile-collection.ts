/**
 * The instance profiles Nodesmith created, on IAM: listed under its path, each kept only when its
 * tags say it is this cluster's, in this region, for an EC2NodeClass (IAM's list leaves tags out,
 * so they are read per profile); deleted as Karpenter deletes its own (aws/karpenter-provider-aws:
 * pkg/providers/instanceprofile), its one role taken out first. The IAM policy allows the
 * removal and the deletion only on profiles carrying the cluster's tag.
 */
import {
  DeleteInstanceProfileCommand,
  GetInstanceProfileCommand,
  type InstanceProfile,
  ListInstanceProfilesCommand,
  ListInstanceProfileTagsCommand,
  RemoveRoleFromInstanceProfileCommand,
} from '@aws-sdk/client-iam';
import { Label } from '../../domain/labels.ts';
import type {
  CreatedInstanceProfile,
  InstanceProfileCollection,
} from '../../ports/instance-profile-collection.ts';
import type { IamApi } from './clients.ts';
import type { ClusterSettings } from './cluster-settings.ts';
import { isIamNotFound, toIamPortError } from './errors.ts';
import { INSTANCE_PROFILE_PATH } from './iam-instance-profile-provisioner.ts';
import { clusterTagKey } from './tags.ts';

export class IamInstanceProfileCollection implements InstanceProfileCollection {
  readonly #iam: IamApi;
  readonly #cluster: Pick<ClusterSettings, 'name' | 'region'>;

  constructor(iam: IamApi, cluster: Pick<ClusterSettings, 'name' | 'region'>) {
    this.#iam = iam;
    this.#cluster = cluster;
  }

  async listCreated(): Promise<readonly CreatedInstanceProfile[]> {
    const created: CreatedInstanceProfile[] = [];
    for (const profile of await this.#listUnderPath()) {
      const name = profile.InstanceProfileName ?? '';
      const nodeClass = this.#ownNodeClass(await this.#tags(name));
      if (nodeClass !== undefined) created.push({ name, nodeClass });
    }
    return created;
  }

  async delete(name: string): Promise<void> {
    const profile = await this.#get(name);
    if (profile === undefined) return;
    for (const role of profile.Roles ?? []) {
      await this.#ignoringGone(
        () =>
          this.#iam.send(
            new RemoveRoleFromInstanceProfileCommand({
              InstanceProfileName: name,
              RoleName: role.RoleName,
            }),
          ),
        `removing role ${role.RoleName} from instance profile ${name}`,
        'iam:RemoveRoleFromInstanceProfile',
      );
    }
    await this.#ignoringGone(
      () => this.#iam.send(new DeleteInstanceProfileCommand({ InstanceProfileName: name })),
      `deleting instance profile ${name}`,
      'iam:DeleteInstanceProfile',
    );
  }

  /** The class a profile was made for, when its tags say this cluster made it in this region. */
  #ownNodeClass(tags: Readonly<Record<string, string>>): string | undefined {
    const { name, region } = this.#cluster;
    if (tags[clusterTagKey(name)] !== 'owned' || tags[Label.region] !== region) return undefined;
    return tags[Label.nodeClass];
  }

  async #listUnderPath(): Promise<InstanceProfile[]> {
    const profiles: InstanceProfile[] = [];
    let marker: string | undefined;
    do {
      const page = await this.#iam
        .send(
          new ListInstanceProfilesCommand({ PathPrefix: INSTANCE_PROFILE_PATH, Marker: marker }),
        )
        .catch((err: unknown) => {
          throw toIamPortError(err, {
            doing: `listing instance profiles under ${INSTANCE_PROFILE_PATH}`,
            permission: 'iam:ListInstanceProfiles',
          });
        });
      profiles.push(...(page.InstanceProfiles ?? []));
      marker = page.IsTruncated === true ? page.Marker : undefined;
    } while (marker !== undefined);
    return profiles;
  }

  async #tags(name: string): Promise<Record<string, string>> {
    const output = await this.#iam
      .send(new ListInstanceProfileTagsCommand({ InstanceProfileName: name }))
      .catch((err: unknown) => {
        // Gone since the listing: nothing of it to keep or delete.
        if (isIamNotFound(err)) return { Tags: [] };
        throw toIamPortError(err, {
          doing: `reading the tags of instance profile ${name}`,
          permission: 'iam:ListInstanceProfileTags',
        });
      });
    return Object.fromEntries((output.Tags ?? []).map((tag) => [tag.Key ?? '', tag.Value ?? '']));
  }

  async #get(name: string): Promise<InstanceProfile | undefined> {
    try {
      const output = await this.#iam.send(
        new GetInstanceProfileCommand({ InstanceProfileName: name }),
      );
      return output.InstanceProfile;
    } catch (err) {
      if (isIamNotFound(err)) return undefined;
      throw toIamPortError(err, {
        doing: `getting instance profile ${name}`,
        permission: 'iam:GetInstanceProfile',
      });
    }
  }

  async #ignoringGone(call: () => Promise<unknown>, doing: string, permission: string) {
    try {
      await call();
    } catch (err) {
      if (isIamNotFound(err)) return;
      throw toIamPortError(err, { doing, permission });
    }
  }
}
