/**
 * Puts the scenario's NodePools, EC2NodeClasses and NodeOverlays into the state store as the pools API will:
 * read by the same schemas `plan` uses, stored with a content hash.
 */
import { createHash } from 'node:crypto';
import { loadCluster, type ManifestFile } from '../../functions/manifests/load-cluster.ts';
import type { DocumentStore, StateStore } from '../../functions/ports/state-store.ts';
import { withDefaultNodeClasses } from '../../functions/use-cases/default-node-classes.ts';
import { checkNodeClasses } from '../../functions/use-cases/node-class-not-found.ts';

function contentHash(document: unknown): string {
  return createHash('sha256').update(JSON.stringify(document)).digest('hex').slice(0, 16);
}

/**
 * Stores the manifests' pools, classes and overlays. A NodePool whose EC2NodeClass is neither in
 * them nor stored already gets a line naming both through `warn` (the pass reads it not ready,
 * NodeClassNotFound, as Karpenter reports it). Manifests that hold no class, with none stored, describe pools
 * only (a what-if written by hand): the class defaults are stored under the names the pools
 * give, since the controller launches with no class it does not hold.
 */
export async function configurePools(
  state: Pick<StateStore, 'nodePools' | 'nodeClasses' | 'nodeOverlays'>,
  manifests: readonly ManifestFile[],
  warn: (message: string) => void = (message) => process.stderr.write(`warning: ${message}\n`),
): Promise<void> {
  const cluster = loadCluster(manifests);
  for (const nodeClass of cluster.nodeClasses) await upsert(state.nodeClasses, nodeClass);
  let nodeClasses = (await state.nodeClasses.list()).map((stored) => stored.document);
  if (nodeClasses.length === 0) {
    nodeClasses = withDefaultNodeClasses({ nodePools: cluster.nodePools, nodeClasses });
    for (const nodeClass of nodeClasses) await upsert(state.nodeClasses, nodeClass);
  }
  // Stored as written: the pass marks a pool whose class is missing itself, and clears the mark
  // once the class is applied, as Karpenter's readiness controller does.
  const { warnings } = checkNodeClasses({ nodePools: cluster.nodePools, nodeClasses });
  for (const message of warnings) warn(message);
  for (const pool of cluster.nodePools) await upsert(state.nodePools, pool);
  for (const overlay of cluster.nodeOverlays) await upsert(state.nodeOverlays, overlay);
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
