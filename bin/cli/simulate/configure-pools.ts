/**
 * Puts the scenario's NodePools and EC2NodeClasses into the state store as the pools API will:
 * read by the same schemas `plan` uses, stored with a content hash.
 */
import { createHash } from 'node:crypto';
import { parseNodeClaim } from '../../../functions/manifests/karpenter/node-claim.ts';
import { parseEC2NodeClass } from '../../../functions/manifests/karpenter/node-class.ts';
import { parseNodePool } from '../../../functions/manifests/karpenter/node-pool.ts';
import { loadCluster, type ManifestFile } from '../../../functions/manifests/load-cluster.ts';
import type { DocumentStore, StateStore } from '../../../functions/ports/state-store.ts';

function contentHash(document: unknown): string {
  return createHash('sha256').update(JSON.stringify(document)).digest('hex').slice(0, 16);
}

export async function configurePools(
  state: Pick<StateStore, 'nodePools' | 'nodeClasses'>,
  manifests: readonly ManifestFile[],
): Promise<void> {
  const cluster = loadCluster(manifests, {
    nodePool: parseNodePool,
    nodeClaim: parseNodeClaim,
    nodeClass: parseEC2NodeClass,
  });
  for (const nodeClass of cluster.nodeClasses) await upsert(state.nodeClasses, nodeClass);
  for (const pool of cluster.nodePools) await upsert(state.nodePools, pool);
}

/** Creates the document, or replaces the stored one as an API client applying it would. */
async function upsert<T extends { readonly metadata: { readonly name: string } }>(
  store: DocumentStore<T>,
  document: T,
): Promise<void> {
  const stored = await store.get(document.metadata.name);
  if (stored === undefined) await store.create(document, contentHash(document));
  else {
    await store.put({
      document,
      hash: contentHash(document),
      expectedResourceVersion: stored.resourceVersion,
    });
  }
}
