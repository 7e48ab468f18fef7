/**
 * NodePools' updates under Karpenter's transition rule, and scaling, as the CRD's scale
 * subresource does it (`specpath=.spec.replicas`, `statuspath=.status.nodes`; core:
 * pkg/apis/v1/nodepool.go): the stored pool with `spec.replicas` replaced, written as any update
 * is, so a dynamic pool — one without replicas — is refused with Karpenter's message.
 */
import type { NodePool } from '../../domain/node-pool.ts';
import type { StoredDocument } from '../../domain/state/stored-document.ts';
import { modeTransitionRefusal } from '../../domain/static-pools/pool-mode-transition.ts';
import { NotFoundError } from '../../ports/errors.ts';
import type { DocumentStore } from '../../ports/state-store.ts';
import { type ApplyOutcome, applyDocument } from './apply-document.ts';
import { InvalidUpdateError } from './invalid-update.ts';

/** A NodePool may not switch between static and dynamic. */
export function checkNodePoolUpdate(current: NodePool, next: NodePool): void {
  const refusal = modeTransitionRefusal(current, next);
  if (refusal !== undefined) throw new InvalidUpdateError(refusal, 'spec.replicas');
}

/** The stored pool, or NotFoundError. */
export async function storedNodePool(
  store: DocumentStore<NodePool>,
  name: string,
): Promise<StoredDocument<NodePool>> {
  const stored = await store.get(name);
  if (stored === undefined) throw new NotFoundError(`NodePool ${name} does not exist`);
  return stored;
}

export async function scaleNodePool(
  store: DocumentStore<NodePool>,
  change: { readonly name: string; readonly replicas: number; readonly expected?: number },
): Promise<ApplyOutcome<NodePool>> {
  const { document } = await storedNodePool(store, change.name);
  const scaled = { ...document, spec: { ...document.spec, replicas: change.replicas } };
  return applyDocument(store, scaled, change.expected, checkNodePoolUpdate);
}
