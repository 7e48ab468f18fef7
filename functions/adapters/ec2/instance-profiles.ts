/**
 * The instance profile nodes launch with: the EC2NodeClass's `instanceProfile` as given, or, for
 * a `role`, a profile named after the cluster and class that an injected provisioner creates
 * and keeps holding the role (aws: pkg/providers/instanceprofile). The provisioner is asked again
 * after Karpenter's 15 minutes, which repairs a profile someone changed by hand.
 */
import type { LaunchableNodeClass } from '../../ports/cloud-provider.ts';
import { NodeClassNotReadyError } from '../../ports/errors.ts';
import { TtlCache } from '../cache/ttl-cache.ts';
import type { Now } from './clients.ts';
import type { ClusterSettings } from './cluster-settings.ts';
import { RefreshInterval } from './refresh-intervals.ts';
import { instanceProfileTags } from './tags.ts';

export interface InstanceProfileRequest {
  readonly name: string;
  /** The IAM role name (a path prefix is ignored) the profile must hold, and only it. */
  readonly role: string;
  /** Written when the profile is created: the class's tags under Nodesmith's ownership tags. */
  readonly tags: Readonly<Record<string, string>>;
}

/**
 * Creates the profile when missing and makes `role` its one role (IAM CreateInstanceProfile,
 * RemoveRoleFromInstanceProfile, AddRoleToInstanceProfile). Idempotent.
 */
export interface InstanceProfileProvisioner {
  ensure(request: InstanceProfileRequest): Promise<void>;
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const UINT64 = (1n << 64n) - 1n;

/** 64-bit FNV-1a of the UTF-8 bytes, as an unsigned decimal. */
function fnv1a64(text: string): string {
  let hash = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(text)) {
    hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & UINT64;
  }
  return hash.toString();
}

/**
 * `<cluster>_<FNV-1a of region + class name>`: Karpenter v1's naming, so a profile Karpenter
 * created for the same class is the one Nodesmith uses.
 */
export function instanceProfileName(cluster: ClusterSettings, nodeClassName: string): string {
  return `${cluster.name}_${fnv1a64(`${cluster.region}${nodeClassName}`)}`;
}

export class InstanceProfiles {
  readonly #cluster: ClusterSettings;
  readonly #provisioner: InstanceProfileProvisioner | undefined;
  readonly #ensured: TtlCache<string>;

  constructor(options: {
    cluster: ClusterSettings;
    now: Now;
    provisioner: InstanceProfileProvisioner | undefined;
  }) {
    this.#cluster = options.cluster;
    this.#provisioner = options.provisioner;
    this.#ensured = new TtlCache(options.now, RefreshInterval.instanceProfilesMs);
  }

  async resolve(nodeClass: LaunchableNodeClass): Promise<string> {
    const { instanceProfile, role } = nodeClass.spec;
    if (instanceProfile !== undefined) return instanceProfile;
    const name = nodeClass.metadata.name;
    if (role === undefined) {
      throw new NodeClassNotReadyError(
        `resolving ec2nodeclass ${name}: set role or instanceProfile`,
      );
    }
    const provisioner = this.#provisioner;
    if (provisioner === undefined) {
      throw new NodeClassNotReadyError(
        `resolving ec2nodeclass ${name}: role ${role} needs an instance profile provisioner; set instanceProfile instead`,
      );
    }
    const profile = instanceProfileName(this.#cluster, name);
    // Launches resolving the class at once share one provisioning, as they share the profile.
    return this.#ensured.getOrLoad(`${profile}/${role}`, async () => {
      const tags = instanceProfileTags(this.#cluster, nodeClass);
      await provisioner.ensure({ name: profile, role, tags });
      return profile;
    });
  }
}
