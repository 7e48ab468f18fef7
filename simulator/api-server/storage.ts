/**
 * In-memory object storage standing in for etcd: one revision counter for the whole cluster,
 * stamped into `metadata.resourceVersion` on every write (deletes included), objects kept in key
 * order, frozen, and copied in and out (`getShared`, `listShared` and commits excepted). It applies no API
 * semantics (no validation, defaults or
 * preconditions): the registry does that for API requests, and tests use the store directly to
 * seed and inspect state.
 */

import { deepFreeze } from '../memory/copy.ts';
import { cloneJson, type JsonObject } from './json.ts';
import { metadataOf, nameOf, namespaceOf, stampCreated } from './object-meta.ts';
import { apiVersionOf, type ResourceDescriptor } from './resource-descriptor.ts';
import type { ResourceName } from './resource-names.ts';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreChange {
  readonly type: ChangeType;
  readonly resource: ResourceName;
  /** A copy of the object as written (for DELETED: as it was, with the deletion's revision). */
  readonly object: JsonObject;
}

export type StoreListener = (change: StoreChange) => void;

/**
 * A write as the watch cache records it: the stored objects themselves, frozen, so no listener
 * pays for a copy (`previous` is what the write replaced or removed).
 */
export interface StoreCommit {
  readonly type: ChangeType;
  readonly resource: ResourceName;
  /** As stored by the write; for DELETED, the object as it was with the deletion's revision. */
  readonly object: JsonObject;
  readonly previous: JsonObject | undefined;
  readonly resourceVersion: number;
}

export type CommitListener = (commit: StoreCommit) => void;

export type DescriptorLookup = (resource: ResourceName) => ResourceDescriptor;

export class ObjectStore {
  readonly #describe: DescriptorLookup;
  readonly #now: () => Date;
  readonly #objects = new Map<ResourceName, Map<string, JsonObject>>();
  /** Each bucket's keys in order, kept until a key comes or goes (updates keep the keys). */
  readonly #sortedKeys = new Map<ResourceName, readonly string[]>();
  readonly #listeners = new Set<StoreListener>();
  readonly #commitListeners = new Set<CommitListener>();
  #revision = 0;

  constructor(describe: DescriptorLookup, now: () => Date) {
    this.#describe = describe;
    this.#now = now;
  }

  /** The cluster-wide revision: the resourceVersion of the latest write. */
  get resourceVersion(): string {
    return String(this.#revision);
  }

  get(resource: ResourceName, name: string, namespace = ''): JsonObject | undefined {
    const stored = this.getShared(resource, name, namespace);
    return stored === undefined ? undefined : cloneJson(stored);
  }

  /**
   * The stored object itself, frozen: for readers that only look at it or serialize it, as the
   * real server serializes what etcd holds without copying it per reader. A write replaces the
   * stored object, so an object seen here never changes.
   */
  getShared(resource: ResourceName, name: string, namespace = ''): JsonObject | undefined {
    return this.#bucket(resource).get(this.#key(resource, name, namespace));
  }

  /** Objects in etcd key order (namespace, then name); all namespaces when none is given. */
  list(resource: ResourceName, namespace?: string): JsonObject[] {
    return this.listShared(resource, namespace).map((o) => cloneJson(o));
  }

  /**
   * The stored objects themselves, frozen, in the order of `list`: for the simulated cluster's
   * own controllers, which read every pod each second and write few, as informers share their
   * cache. A write replaces the stored object, so an object seen here never changes.
   */
  listShared(resource: ResourceName, namespace?: string): readonly JsonObject[] {
    const bucket = this.#bucket(resource);
    const objects = this.#keysInOrder(resource)
      .map((key) => bucket.get(key))
      .filter((o) => o !== undefined);
    const scoped = this.#describe(resource).namespaced && namespace !== undefined;
    return scoped ? objects.filter((o) => namespaceOf(o) === namespace) : objects;
  }

  /**
   * Stores a new object, stamping uid, creationTimestamp, generation (where tracked),
   * kind/apiVersion and a fresh resourceVersion. A namespaced object without a namespace goes to
   * `default`. Throws when the name is taken.
   */
  create(resource: ResourceName, object: JsonObject): JsonObject {
    const descriptor = this.#describe(resource);
    const copy = this.#withTypeMeta(descriptor, object);
    if (descriptor.namespaced && namespaceOf(copy) === '') metadataOf(copy).namespace = 'default';
    const key = this.#key(resource, nameOf(copy), namespaceOf(copy));
    if (nameOf(copy) === '') throw new Error(`${resource}: cannot store an object without a name`);
    if (this.#bucket(resource).has(key)) throw new Error(`${resource} ${key} already exists`);
    stampCreated(copy, this.#now(), descriptor.tracksGeneration);
    return this.#write(resource, key, copy, 'ADDED');
  }

  /** Replaces a stored object unconditionally with a fresh resourceVersion. Throws when missing. */
  update(resource: ResourceName, object: JsonObject): JsonObject {
    const descriptor = this.#describe(resource);
    const copy = this.#withTypeMeta(descriptor, object);
    const key = this.#key(resource, nameOf(copy), namespaceOf(copy));
    if (!this.#bucket(resource).has(key)) throw new Error(`${resource} ${key} does not exist`);
    return this.#write(resource, key, copy, 'MODIFIED');
  }

  /** Removes an object outright; returns it as it was, or undefined when there was none. */
  delete(resource: ResourceName, name: string, namespace = ''): JsonObject | undefined {
    const bucket = this.#bucket(resource);
    const key = this.#key(resource, name, namespace);
    const stored = bucket.get(key);
    if (stored === undefined) return undefined;
    bucket.delete(key);
    this.#sortedKeys.delete(resource);
    this.#revision += 1;
    const gone = cloneJson(stored);
    metadataOf(gone).resourceVersion = this.resourceVersion;
    this.#commit({ type: 'DELETED', resource, object: gone }, stored);
    return cloneJson(gone);
  }

  /** Called synchronously after every write; returns the unsubscribe function. */
  onChange(listener: StoreListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Called synchronously after every write, before `onChange` listeners, with the frozen stored
   * objects; returns the unsubscribe function. For readers that only keep or serialize them.
   */
  onCommit(listener: CommitListener): () => void {
    this.#commitListeners.add(listener);
    return () => this.#commitListeners.delete(listener);
  }

  #write(resource: ResourceName, key: string, object: JsonObject, type: ChangeType): JsonObject {
    this.#revision += 1;
    metadataOf(object).resourceVersion = this.resourceVersion;
    const bucket = this.#bucket(resource);
    const previous = bucket.get(key);
    if (previous === undefined) this.#sortedKeys.delete(resource);
    bucket.set(key, deepFreeze(object));
    this.#commit({ type, resource, object }, previous);
    return cloneJson(object);
  }

  #commit(change: StoreChange, previous: JsonObject | undefined): void {
    const commit: StoreCommit = {
      ...change,
      object: deepFreeze(change.object),
      previous,
      resourceVersion: this.#revision,
    };
    for (const listener of [...this.#commitListeners]) listener(commit);
    for (const listener of [...this.#listeners]) {
      listener({ ...change, object: cloneJson(change.object) });
    }
  }

  #withTypeMeta(descriptor: ResourceDescriptor, object: JsonObject): JsonObject {
    // Key order as Go serialises the structs: kind, apiVersion, metadata, then the rest.
    const { kind: _kind, apiVersion: _apiVersion, metadata, ...rest } = cloneJson(object);
    return {
      kind: descriptor.kind,
      apiVersion: apiVersionOf(descriptor),
      metadata: metadata ?? {},
      ...rest,
    };
  }

  #key(resource: ResourceName, name: string, namespace: string): string {
    if (!this.#describe(resource).namespaced) return name;
    // A forgotten namespace would silently find nothing; say so instead.
    if (namespace === '')
      throw new Error(`${resource} are namespaced: name a namespace for ${name}`);
    return `${namespace}/${name}`;
  }

  #keysInOrder(resource: ResourceName): readonly string[] {
    let keys = this.#sortedKeys.get(resource);
    if (keys === undefined) {
      keys = [...this.#bucket(resource).keys()].sort();
      this.#sortedKeys.set(resource, keys);
    }
    return keys;
  }

  #bucket(resource: ResourceName): Map<string, JsonObject> {
    let bucket = this.#objects.get(resource);
    if (bucket === undefined) {
      bucket = new Map();
      this.#objects.set(resource, bucket);
    }
    return bucket;
  }
}
