/**
 * Deletes the instance profiles Nodesmith made for EC2NodeClasses that are gone or no longer
 * name a `role`, unless a claim of that class still runs (its instance holds the profile), as
 * Karpenter's instance profile garbage collection keeps profiles of current classes and of live
 * NodeClaims. Profiles are listed before classes and claims are read: a profile made after the
 * listing is not considered, and one made before it belongs to a class already stored.
 */
import type { InstanceProfileCollection } from '../../ports/instance-profile-collection.ts';
import type { StateStore } from '../../ports/state-store.ts';

export interface CollectInstanceProfilesDependencies {
  readonly state: Pick<StateStore, 'nodeClasses' | 'nodeClaims'>;
  readonly profiles: InstanceProfileCollection;
}

/** The names of the profiles deleted. */
export async function collectInstanceProfiles(
  deps: CollectInstanceProfilesDependencies,
): Promise<readonly string[]> {
  const created = await deps.profiles.listCreated();
  if (created.length === 0) return [];
  const [classes, claims] = await Promise.all([
    deps.state.nodeClasses.list(),
    deps.state.nodeClaims.list(),
  ]);
  const inUse = new Set([
    ...classes
      .filter((c) => c.document.spec.role !== undefined)
      .map((c) => c.document.metadata.name),
    ...claims.map((claim) => claim.nodeClass),
  ]);
  const unused = created.filter((profile) => !inUse.has(profile.nodeClass));
  for (const profile of unused) await deps.profiles.delete(profile.name);
  return unused.map((profile) => profile.name);
}
