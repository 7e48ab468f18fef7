/**
 * `PUT /v1/nodepools/{name}`, `/v1/nodeclasses/{name}` and `/v1/nodeoverlays/{name}`: create the
 * document, or replace the stored one. With an expected resourceVersion (`If-Match` or
 * `metadata.resourceVersion`) the write happens only over that version, as `kubectl apply` with a
 * resourceVersion does; without one it replaces whatever is stored. Applying the same document
 * again changes nothing; a replacement its kind's transition rules refuse changes nothing either.
 */
import { stableHash } from '../../domain/disruption/stable-hash.ts';
import type { NamedDocument, StoredDocument } from '../../domain/state/stored-document.ts';
import { ConflictError } from '../../ports/errors.ts';
import type { DocumentStore } from '../../ports/state-store.ts';

export interface ApplyOutcome<T extends NamedDocument> {
  readonly stored: StoredDocument<T>;
  /** `created`, `configured` (replaced) or `unchanged`, as kubectl reports it. */
  readonly result: 'created' | 'configured' | 'unchanged';
}

/** The document's content hash: equal documents, equal hash, whatever their key order. */
export function documentHash(document: unknown): string {
  return stableHash(document);
}

/** Refuses replacing `current` by `next` (InvalidUpdateError), as a CRD's transition rules do. */
export type UpdateCheck<T> = (current: T, next: T) => void;

export async function applyDocument<T extends NamedDocument>(
  store: DocumentStore<T>,
  document: T,
  expectedResourceVersion?: number,
  checkUpdate?: UpdateCheck<T>,
): Promise<ApplyOutcome<T>> {
  const name = document.metadata.name;
  const current = await store.get(name);
  if (
    expectedResourceVersion !== undefined &&
    current?.resourceVersion !== expectedResourceVersion
  ) {
    const stored =
      current === undefined ? 'none is stored' : `${current.resourceVersion} is stored`;
    throw new ConflictError(
      `${name}: the request is for resourceVersion ${expectedResourceVersion}, but ${stored}; read it again and reapply`,
    );
  }
  const hash = documentHash(document);
  if (current === undefined)
    return { stored: await store.create(document, hash), result: 'created' };
  if (current.hash === hash) return { stored: current, result: 'unchanged' };
  checkUpdate?.(current.document, document);
  const stored = await store.put({
    document,
    hash,
    expectedResourceVersion: current.resourceVersion,
  });
  return { stored, result: 'configured' };
}
