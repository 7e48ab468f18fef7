/**
 * Instances of claims written before Nodesmith tagged what it launches with its own key: the
 * listing (by that key) no longer finds them, so the lifecycle step would take their claims for
 * lost and remove them, terminating the instances under their pods. They are found by the
 * claims' instance ids, kept only when they carry the claim's own `karpenter.sh/nodeclaim` tag,
 * and given the ownership tag, after which they are listed like any other. When the tag cannot
 * be written (IAM grants it only with adoption on) they still stand for their claims, so nothing
 * is removed; terminating them waits until they carry it.
 */
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type { InstanceProvider, ManagedInstance } from '../../ports/cloud-provider.ts';

export interface UntaggedClaimInstances {
  /** The claims' instances the listing missed, marked owned when the tag was written. */
  readonly instances: readonly ManagedInstance[];
  /** The instances this call tagged. */
  readonly tagged: readonly string[];
  /** Why the tag could not be written, if it could not. */
  readonly problem?: string;
}

export async function untaggedClaimInstances(
  cloud: Pick<InstanceProvider, 'describe' | 'claimOwnership'>,
  claims: readonly NodeClaimRecord[],
  listed: readonly ManagedInstance[],
): Promise<UntaggedClaimInstances> {
  const seen = new Set(listed.map((i) => i.instanceId));
  const claimOf = new Map(
    claims.flatMap((c) =>
      c.instanceId === undefined || seen.has(c.instanceId) ? [] : [[c.instanceId, c.name] as const],
    ),
  );
  if (claimOf.size === 0) return { instances: [], tagged: [] };
  const described = await cloud.describe([...claimOf.keys()].sort());
  const ours = described.filter((i) => i.nodeClaim === claimOf.get(i.instanceId));
  const untagged = ours.filter((i) => !i.owned);
  if (untagged.length === 0) return { instances: ours, tagged: [] };
  const ids = untagged.map((i) => i.instanceId);
  try {
    await cloud.claimOwnership(ids);
    return { instances: ours.map((i) => ({ ...i, owned: true })), tagged: ids };
  } catch (err) {
    const problem = err instanceof Error ? err.message : String(err);
    return { instances: ours, tagged: [], problem };
  }
}
