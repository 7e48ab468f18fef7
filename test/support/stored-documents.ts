/**
 * Karpenter's documents in the state store as the pools API leaves them: read by the manifest
 * readers `plan` uses, each stored at resourceVersion 1 with a hash of its content.
 */
import { createHash } from 'node:crypto';
import { loadCluster } from '../../functions/manifests/load-cluster.ts';
import type { StateStore } from '../../functions/ports/state-store.ts';

function contentHash(document: unknown): string {
  return createHash('sha256').update(JSON.stringify(document)).digest('hex').slice(0, 16);
}

/** Stores the NodePools, EC2NodeClasses and NodeOverlays among `documents`. */
export async function storeDocuments(
  state: Pick<StateStore, 'nodePools' | 'nodeClasses' | 'nodeOverlays'>,
  documents: readonly object[],
): Promise<void> {
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: documents });
  const cluster = loadCluster([{ file: 'documents.json', text }]);
  for (const nodeClass of cluster.nodeClasses) {
    await state.nodeClasses.create(nodeClass, contentHash(nodeClass));
  }
  for (const pool of cluster.nodePools) await state.nodePools.create(pool, contentHash(pool));
  for (const overlay of cluster.nodeOverlays) {
    await state.nodeOverlays.create(overlay, contentHash(overlay));
  }
}
