/**
 * Each resource's recent changes, so that a watch can resume from a resourceVersion, kept as
 * kube-apiserver's watch cache keeps them (kubernetes/kubernetes,
 * staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go): a buffer of at least 100
 * changes per resource that doubles, up to 102,400, while its oldest change is younger than
 * 75 seconds, and halves when its newest quarter is older than that. A watch from before the
 * oldest change kept cannot be served: kube-apiserver answers it 410 Expired, `too old resource
 * version`, and the client lists again.
 */

import type { JsonObject } from './json.ts';
import type { ResourceName } from './resource-names.ts';
import type { ChangeType, ObjectStore, StoreCommit } from './storage.ts';

/** watch_cache.go's `defaultLowerBoundCapacity`, the `--default-watch-cache-size`. */
export const WATCH_CACHE_LOWER_BOUND = 100;
const UPPER_BOUND = 100 * 1024;
/** `eventFreshDuration`: changes younger than this are not dropped while the buffer can grow. */
const FRESH_MS = 75_000;

export interface WatchCacheEvent {
  readonly type: ChangeType;
  /** Frozen: as stored by the write; for DELETED, as it was with the deletion's revision. */
  readonly object: JsonObject;
  /** Frozen: what the write replaced or removed. */
  readonly previous: JsonObject | undefined;
  readonly resourceVersion: number;
  readonly recordedMs: number;
}

/** What a watch from too old a revision gets: the revision before the oldest change kept. */
export interface TooOld {
  readonly tooOld: true;
  readonly oldestServable: number;
}

export type WatchListener = (event: WatchCacheEvent) => void;

class ResourceHistory {
  /** Oldest first from `start`; the slots before it are dropped changes not yet compacted. */
  #events: WatchCacheEvent[] = [];
  #start = 0;
  #capacity: number;
  readonly #lowerBound: number;
  /** The revision before the oldest change kept: a watch from it or later can be served. */
  oldestServable: number;
  readonly listeners = new Set<WatchListener>();

  constructor(oldestServable: number, lowerBound: number) {
    this.oldestServable = oldestServable;
    this.#lowerBound = lowerBound;
    this.#capacity = lowerBound;
  }

  get #size(): number {
    return this.#events.length - this.#start;
  }

  #at(index: number): WatchCacheEvent | undefined {
    return this.#events[this.#start + index];
  }

  add(event: WatchCacheEvent): void {
    this.#resize(event.recordedMs);
    if (this.#size >= this.#capacity) this.#drop(this.#size - this.#capacity + 1);
    this.#events.push(event);
    for (const listener of [...this.listeners]) listener(event);
  }

  /** The changes kept after `resourceVersion`, oldest first. */
  after(resourceVersion: number): readonly WatchCacheEvent[] {
    const kept = this.#events.slice(this.#start);
    const first = kept.findIndex((event) => event.resourceVersion > resourceVersion);
    return first === -1 ? [] : kept.slice(first);
  }

  /** `resizeCacheLocked`: grow while full of fresh changes, shrink when its newest quarter is stale. */
  #resize(nowMs: number): void {
    if (this.#size < this.#capacity) return;
    const oldest = this.#at(0);
    if (oldest !== undefined && nowMs - oldest.recordedMs < FRESH_MS) {
      this.#capacity = Math.min(this.#capacity * 2, UPPER_BOUND);
      return;
    }
    const quarter = this.#at(this.#size - Math.floor(this.#capacity / 4));
    if (quarter !== undefined && nowMs - quarter.recordedMs > FRESH_MS) {
      this.#capacity = Math.max(Math.floor(this.#capacity / 2), this.#lowerBound);
      if (this.#size > this.#capacity) this.#drop(this.#size - this.#capacity);
    }
  }

  #drop(count: number): void {
    const last = this.#at(count - 1);
    if (last !== undefined) this.oldestServable = last.resourceVersion;
    this.#start += count;
    // Compact now and then, so the array does not grow with every change ever made.
    if (this.#start > this.#events.length / 2) {
      this.#events = this.#events.slice(this.#start);
      this.#start = 0;
    }
  }
}

export interface WatchCacheOptions {
  /** Changes each resource keeps at least. @default 100 */
  readonly lowerBound?: number;
}

export class WatchCache {
  readonly #store: ObjectStore;
  readonly #now: () => Date;
  readonly #lowerBound: number;
  readonly #histories = new Map<ResourceName, ResourceHistory>();
  readonly #stop: () => void;
  /** The revision the cache started at: no change before it was recorded. */
  readonly #startedAt: number;

  constructor(store: ObjectStore, now: () => Date, options: WatchCacheOptions = {}) {
    this.#store = store;
    this.#now = now;
    this.#lowerBound = options.lowerBound ?? WATCH_CACHE_LOWER_BOUND;
    this.#startedAt = Number(store.resourceVersion);
    this.#stop = store.onCommit((commit) => this.#record(commit));
  }

  /** The current revision of the whole store. */
  get resourceVersion(): number {
    return Number(this.#store.resourceVersion);
  }

  /**
   * The resource's changes after `resourceVersion`, oldest first; `TooOld` when some of them are
   * no longer kept.
   */
  changesSince(
    resource: ResourceName,
    resourceVersion: number,
  ): readonly WatchCacheEvent[] | TooOld {
    const history = this.#history(resource);
    const { oldestServable } = history;
    if (resourceVersion < oldestServable) return { tooOld: true, oldestServable };
    return history.after(resourceVersion);
  }

  /** Called with every later change of the resource; returns the unsubscribe function. */
  subscribe(resource: ResourceName, listener: WatchListener): () => void {
    const { listeners } = this.#history(resource);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  stop(): void {
    this.#stop();
  }

  #record(commit: StoreCommit): void {
    this.#history(commit.resource).add({
      type: commit.type,
      object: commit.object,
      previous: commit.previous,
      resourceVersion: commit.resourceVersion,
      recordedMs: this.#now().getTime(),
    });
  }

  #history(resource: ResourceName): ResourceHistory {
    let history = this.#histories.get(resource);
    if (history === undefined) {
      history = new ResourceHistory(this.#startedAt, this.#lowerBound);
      this.#histories.set(resource, history);
    }
    return history;
  }
}
