/** Contract of the NodePool and EC2NodeClass stores: create, versioned put, list, delete. */

import { describe, expect, it } from 'vitest';
import { clusterLimits } from '../../functions/domain/limits/cluster-limits.ts';
import type { NamedDocument } from '../../functions/domain/state/stored-document.ts';
import { ConflictError, NotFoundError } from '../../functions/ports/errors.ts';
import type { DocumentStore, StateStore } from '../../functions/ports/state-store.ts';
import {
  aNodePool,
  anEC2NodeClass,
  race,
  rejectionOf,
  type StoreFactory,
} from './state-fixtures.ts';

interface DocumentKind<TDocument extends NamedDocument> {
  readonly label: string;
  readonly pick: (store: StateStore) => DocumentStore<TDocument>;
  /** A document; different variants differ in content, not in name. */
  readonly build: (name: string, variant?: number) => TDocument;
}

function createContract<T extends NamedDocument>(makeStore: StoreFactory, kind: DocumentKind<T>) {
  const { pick, build } = kind;
  it('creates a document at resourceVersion 1 and returns every field of it', async () => {
    const documents = pick(await makeStore());
    const created = await documents.create(build('default'), 'hash-1');
    expect(created).toEqual({ document: build('default'), hash: 'hash-1', resourceVersion: 1 });
    expect(await documents.get('default')).toEqual(created);
    expect(await documents.get('missing')).toBeUndefined();
  });

  it('refuses to create a document whose name is taken', async () => {
    const documents = pick(await makeStore());
    await documents.create(build('default'), 'hash-1');
    const again = documents.create(build('default', 2), 'hash-2');
    await expect(again).rejects.toBeInstanceOf(ConflictError);
    expect((await documents.get('default'))?.hash).toBe('hash-1');
  });
}

function putContract<T extends NamedDocument>(makeStore: StoreFactory, kind: DocumentKind<T>) {
  const { pick, build } = kind;
  const change = (variant: number, expectedResourceVersion: number) => ({
    document: build('default', variant),
    hash: `hash-${variant}`,
    expectedResourceVersion,
  });
  it('puts a new version only over the version it read', async () => {
    // Prepare
    const documents = pick(await makeStore());
    await documents.create(build('default'), 'hash-1');
    // Act
    const updated = await documents.put(change(2, 1));
    const stale = await rejectionOf(documents.put(change(3, 1)));
    // Assess
    expect(updated).toEqual({ document: build('default', 2), hash: 'hash-2', resourceVersion: 2 });
    expect(stale).toBeInstanceOf(ConflictError);
    expect(await documents.get('default')).toEqual(updated);
  });

  it('rejects a put of a document that does not exist with NotFoundError', async () => {
    const documents = pick(await makeStore());
    await expect(documents.put(change(1, 1))).rejects.toBeInstanceOf(NotFoundError);
    expect(await documents.get('default')).toBeUndefined();
  });

  it('lets exactly one of 10 concurrent puts from the same version win', async () => {
    const documents = pick(await makeStore());
    await documents.create(build('default'), 'hash-0');
    const outcome = await race(10, (i) => documents.put(change(i + 2, 1)));
    expect(outcome.fulfilled).toHaveLength(1);
    expect(outcome.rejected).toHaveLength(9);
    for (const err of outcome.rejected) expect(err).toBeInstanceOf(ConflictError);
    expect(await documents.get('default')).toEqual(outcome.fulfilled[0]);
  });
}

function listAndDeleteContract<T extends NamedDocument>(
  makeStore: StoreFactory,
  kind: DocumentKind<T>,
) {
  const { pick, build } = kind;
  it('lists documents sorted by name', async () => {
    const documents = pick(await makeStore());
    for (const name of ['gpu', 'default', 'batch']) await documents.create(build(name), name);
    const names = (await documents.list()).map((stored) => stored.document.metadata.name);
    expect(names).toEqual(['batch', 'default', 'gpu']);
  });

  it('deletes idempotently, and only the expected version when one is given', async () => {
    // Prepare
    const documents = pick(await makeStore());
    await documents.create(build('default'), 'hash-1');
    await documents.create(build('other'), 'hash-1');
    // Act
    const stale = await rejectionOf(documents.delete('default', 7));
    await documents.delete('other');
    await documents.delete('other');
    await documents.delete('never-there', 3);
    // Assess
    expect(stale).toBeInstanceOf(ConflictError);
    await documents.delete('default', 1);
    expect(await documents.list()).toEqual([]);
  });
}

function documentContract<T extends NamedDocument>(makeStore: StoreFactory, kind: DocumentKind<T>) {
  describe(kind.label, () => {
    createContract(makeStore, kind);
    putContract(makeStore, kind);
    listAndDeleteContract(makeStore, kind);
  });
}

export function documentStoreContract(makeStore: StoreFactory): void {
  documentContract(makeStore, {
    label: 'node pools',
    pick: (store) => store.nodePools,
    build: (name, variant = 1) => aNodePool(name, variant),
  });
  documentContract(makeStore, {
    label: 'node classes',
    pick: (store) => store.nodeClasses,
    build: (name, variant = 1) => anEC2NodeClass(name, `Role${variant}`),
  });

  documentContract(makeStore, {
    label: 'cluster limits',
    pick: (store) => store.clusterLimits,
    build: (name, variant = 1) => ({
      ...clusterLimits({ nodes: String(100 * variant) }),
      metadata: { name },
    }),
  });

  it('keeps node pools and node classes of the same name apart', async () => {
    const store = await makeStore();
    await store.nodePools.create(aNodePool('default'), 'pool');
    await store.nodeClasses.create(anEC2NodeClass('default'), 'class');
    expect((await store.nodePools.list()).map((stored) => stored.hash)).toEqual(['pool']);
    expect((await store.nodeClasses.list()).map((stored) => stored.hash)).toEqual(['class']);
  });
}
