/**
 * `DELETE /v1/nodepools/{name}`, `/v1/nodeclasses/{name}` and `/v1/nodeoverlays/{name}`.
 * Deleting a NodePool marks each of its claims for deletion, as Karpenter's NodeClaims go with
 * their NodePool, and the controller drains and terminates them within the pool's
 * terminationGracePeriod. The claims are marked before the pool is deleted, so a call that dies
 * half-way leaves the pool to be deleted again, never claims without a pool; a claim a pass
 * writes meanwhile is marked by the controller, which deletes every claim whose pool is gone
 * (domain/lifecycle/owner-cascade.ts). An EC2NodeClass that a NodePool still names, or that
 * claims still run on, is kept: Karpenter's finalizer waits too. Nothing refers to a NodeOverlay,
 * so it simply goes: the next pass prices and sizes the types it selected without it.
 */
import { claimDisruption, markedForDeletion } from '../../domain/lifecycle/claim-deletion.ts';
import type { NodePool } from '../../domain/node-pool.ts';
import type { ClaimDisruption } from '../../domain/state/node-claim-record.ts';
import { ConflictError, NotFoundError } from '../../ports/errors.ts';
import type { DocumentStore, StateStore } from '../../ports/state-store.ts';

type Stores = Pick<StateStore, 'nodePools' | 'nodeClasses' | 'nodeClaims'>;

/** A claim changed by the controller meanwhile is read again; this many times at most. */
const ATTEMPTS = 5;

async function current<T extends { metadata: { name: string } }>(
  store: DocumentStore<T>,
  kind: string,
  name: string,
  expectedResourceVersion?: number,
) {
  const stored = await store.get(name);
  if (stored === undefined) throw new NotFoundError(`${kind} ${name} does not exist`);
  if (expectedResourceVersion !== undefined && stored.resourceVersion !== expectedResourceVersion) {
    throw new ConflictError(
      `${kind} ${name}: the request is for resourceVersion ${expectedResourceVersion}, but ${stored.resourceVersion} is stored`,
    );
  }
  return stored;
}

/** Marks one claim, read fresh each time the controller has changed it meanwhile. */
async function markClaim(state: Stores, name: string, disruption: ClaimDisruption) {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const claim = await state.nodeClaims.get(name);
    const next = claim === undefined ? undefined : markedForDeletion(claim, disruption);
    if (next === undefined) return false;
    try {
      await state.nodeClaims.update(next);
      return true;
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
    }
  }
  throw new ConflictError(`NodeClaim ${name} kept changing; delete the NodePool again to retry`);
}

async function markForDeletion(state: Stores, name: string, pool: NodePool, now: Date) {
  const disruption = claimDisruption('NodePoolDeleted', `NodePool ${name} was deleted`, now, pool);
  const marked: string[] = [];
  for (const claim of await state.nodeClaims.listByPool(name)) {
    if (await markClaim(state, claim.name, disruption)) marked.push(claim.name);
  }
  return marked;
}

/** Marks the pool's claims for deletion, then deletes the pool; resolves with the claims marked. */
export async function deleteNodePool(
  state: Stores,
  name: string,
  now: Date,
  expectedResourceVersion?: number,
): Promise<readonly string[]> {
  const stored = await current(state.nodePools, 'NodePool', name, expectedResourceVersion);
  const marked = await markForDeletion(state, name, stored.document, now);
  await state.nodePools.delete(name, stored.resourceVersion);
  return marked;
}

export async function deleteNodeClass(
  state: Stores,
  name: string,
  expectedResourceVersion?: number,
): Promise<void> {
  const stored = await current(state.nodeClasses, 'EC2NodeClass', name, expectedResourceVersion);
  const pools = (await state.nodePools.list()).filter(
    (p) => p.document.spec.template.spec.nodeClassRef.name === name,
  );
  const claims = (await state.nodeClaims.list()).filter((c) => c.nodeClass === name);
  if (pools.length > 0 || claims.length > 0) {
    const users = [
      ...pools.map((p) => `NodePool ${p.document.metadata.name}`),
      ...claims.map((c) => `NodeClaim ${c.name}`),
    ];
    throw new ConflictError(
      `EC2NodeClass ${name} is in use by ${users.slice(0, 5).join(', ')}${users.length > 5 ? ` and ${users.length - 5} more` : ''}; delete those first`,
    );
  }
  await state.nodeClasses.delete(name, stored.resourceVersion);
}

export async function deleteNodeOverlay(
  state: Pick<StateStore, 'nodeOverlays'>,
  name: string,
  expectedResourceVersion?: number,
): Promise<void> {
  const stored = await current(state.nodeOverlays, 'NodeOverlay', name, expectedResourceVersion);
  await state.nodeOverlays.delete(name, stored.resourceVersion);
}
