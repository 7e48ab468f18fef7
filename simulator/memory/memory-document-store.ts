/**
 * NodePools, EC2NodeClasses, NodeOverlays or limits in a Map, with the DynamoDB adapter's
 * semantics: conditional create, version-checked put, idempotent delete. Values are copied in
 * (`copyAsStored`) and out (`copyJson`), so callers can never change what is stored behind the
 * store's back.
 */
import { byDocumentName } from '../../functions/domain/state/order.ts';
import type {
  NamedDocument,
  StoredDocument,
} from '../../functions/domain/state/stored-document.ts';
import { ConflictError, NotFoundError } from '../../functions/ports/errors.ts';
import type { DocumentChange, DocumentStore } from '../../functions/ports/state-store.ts';
import { copyAsStored, copyJson } from './copy.ts';

export class MemoryDocumentStore<TDocument extends NamedDocument>
  implements DocumentStore<TDocument>
{
  readonly #items = new Map<string, StoredDocument<TDocument>>();
  readonly #kind: string;

  /** `kind` names the documents in error messages ("node pool"). */
  constructor(kind: string) {
    this.#kind = kind;
  }

  async create(document: TDocument, hash: string): Promise<StoredDocument<TDocument>> {
    const name = document.metadata.name;
    if (this.#items.has(name)) {
      throw new ConflictError(`creating ${this.#kind} ${name}: it already exists`);
    }
    return this.#store({ document, hash, resourceVersion: 1 });
  }

  async put(change: DocumentChange<TDocument>): Promise<StoredDocument<TDocument>> {
    const name = change.document.metadata.name;
    const doing = `updating ${this.#kind} ${name}`;
    const current = this.#items.get(name);
    if (current === undefined) throw new NotFoundError(`${doing}: it does not exist`);
    if (current.resourceVersion !== change.expectedResourceVersion) {
      throw new ConflictError(
        `${doing}: resourceVersion is ${current.resourceVersion}, not ${change.expectedResourceVersion}`,
      );
    }
    const resourceVersion = current.resourceVersion + 1;
    return this.#store({ document: change.document, hash: change.hash, resourceVersion });
  }

  async get(name: string): Promise<StoredDocument<TDocument> | undefined> {
    const stored = this.#items.get(name);
    return stored === undefined ? undefined : copyJson(stored);
  }

  async list(): Promise<readonly StoredDocument<TDocument>[]> {
    return [...this.#items.values()].sort(byDocumentName).map(copyJson);
  }

  async delete(name: string, expectedResourceVersion?: number): Promise<void> {
    const current = this.#items.get(name);
    if (current === undefined) return;
    if (
      expectedResourceVersion !== undefined &&
      current.resourceVersion !== expectedResourceVersion
    ) {
      throw new ConflictError(
        `deleting ${this.#kind} ${name}: resourceVersion is ${current.resourceVersion}, not ${expectedResourceVersion}`,
      );
    }
    this.#items.delete(name);
  }

  #store(stored: StoredDocument<TDocument>): StoredDocument<TDocument> {
    const copy = copyAsStored(stored);
    this.#items.set(stored.document.metadata.name, copy);
    return copyJson(copy);
  }
}
