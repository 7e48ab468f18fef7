/**
 * Claims in the order the scheduler offers them a pod: fewest pods first, and claims with as
 * many pods in the order they reached that count (core: scheduling/scheduler.go sorts its new
 * claims by pod count, stably, before each pod).
 *
 * Each claim says how much room it has left (new-node-claim.ts); the claims of one count are
 * kept in blocks that know the most room any of their claims has. A pod skips a block of full
 * claims with three comparisons instead of asking each claim: at 20,000 pods most claims are full
 * for most pods, and asking each one made offering quadratic in the number of claims.
 */

/** What one claim can still take (see NewNodeClaim.room). */
export interface ClaimRoom {
  readonly cpu: number;
  readonly memory: number;
  readonly pods: number;
  readonly efficientCpu: number;
  readonly efficientMemory: number;
  readonly efficientPods: number;
}

export interface LoadedClaim {
  /** How many pods the claim holds: its place in the order. */
  readonly load: number;
  /** Changes only when the claim takes a pod, which `moved` is told of. */
  readonly room: ClaimRoom;
}

/** What a pod adds to a claim, and whether it must share the claim's node (it gets all the room). */
export interface RoomNeed {
  readonly cpu: number;
  readonly memory: number;
  readonly pods: number;
  readonly coLocated: boolean;
}

const BLOCK = 32;
/** Per block: the most of each room measure, for pods that may go elsewhere, then for co-located ones. */
const MEASURES = 6;

/** The measures `RoomNeed` is held to: the efficient room, or for co-located pods all of it. */
function measure(room: ClaimRoom, m: number): number {
  switch (m) {
    case 0:
      return room.efficientCpu;
    case 1:
      return room.efficientMemory;
    case 2:
      return Math.min(room.pods, room.efficientPods);
    case 3:
      return room.cpu;
    case 4:
      return room.memory;
    default:
      return room.pods;
  }
}

/** Whether the need fits the room, compared as NewNodeClaim.hasRoomFor compares them. */
function fits(room: ClaimRoom, need: RoomNeed): boolean {
  if (need.pods > room.pods) return false;
  if (need.coLocated) return !(need.cpu > room.cpu || need.memory > room.memory);
  if (need.cpu > room.efficientCpu || need.memory > room.efficientMemory) return false;
  return !(need.pods > room.efficientPods);
}

/** The claims of one count, in the order they reached it; a claim that moved on leaves a hole. */
class Bucket<T extends LoadedClaim> {
  slots: (T | undefined)[] = [];
  /** Per block and measure, the most room a claim in the block has: -Infinity for none. */
  tops: number[] = [];
  live = 0;

  /** The first claim of the bucket with room for `need` that `accepts` it, skipping full blocks. */
  find(need: RoomNeed, accepts: (claim: T) => boolean): T | undefined {
    const base = need.coLocated ? 3 : 0;
    const { tops } = this;
    for (let block = 0; block * BLOCK < this.slots.length; block++) {
      const t = block * MEASURES + base;
      if (need.cpu > (tops[t] ?? Infinity) || need.memory > (tops[t + 1] ?? Infinity)) continue;
      if (need.pods > (tops[t + 2] ?? Infinity)) continue;
      const found = this.findInBlock(block, need, accepts);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  private findInBlock(block: number, need: RoomNeed, accepts: (claim: T) => boolean) {
    const end = Math.min((block + 1) * BLOCK, this.slots.length);
    for (let s = block * BLOCK; s < end; s++) {
      const claim = this.slots[s];
      if (claim !== undefined && fits(claim.room, need) && accepts(claim)) return claim;
    }
    return undefined;
  }

  /** Recomputes one block's tops; Math.max keeps a NaN, so such a block is never skipped. */
  refresh(block: number): void {
    const start = block * BLOCK;
    const end = Math.min(start + BLOCK, this.slots.length);
    for (let m = 0; m < MEASURES; m++) {
      let top = Number.NEGATIVE_INFINITY;
      for (let s = start; s < end; s++) {
        const claim = this.slots[s];
        if (claim !== undefined) top = Math.max(top, measure(claim.room, m));
      }
      this.tops[block * MEASURES + m] = top;
    }
  }
}

/** Where a claim is in the order, kept current as it moves. */
interface Place<T> {
  readonly claim: T;
  load: number;
  slot: number;
}

export class LoadOrder<T extends LoadedClaim> {
  private readonly buckets: Bucket<T>[] = [];
  private readonly places = new Map<T, Place<T>>();

  /** A claim joins at the end of its count. */
  add(claim: T): void {
    const place = { claim, load: 0, slot: 0 };
    this.places.set(claim, place);
    this.arrive(place);
  }

  has(claim: T): boolean {
    return this.places.has(claim);
  }

  /** The claim took a pod: it goes to the end of its new count, with its new room. */
  moved(claim: T): void {
    const place = this.places.get(claim);
    if (place === undefined) return;
    this.leave(place);
    this.arrive(place);
  }

  remove(claim: T): void {
    const place = this.places.get(claim);
    if (place === undefined) return;
    this.leave(place);
    this.places.delete(claim);
  }

  /**
   * The first claim in order that has room for `need` and `accepts` the pod: only claims with
   * room are asked.
   */
  find(need: RoomNeed, accepts: (claim: T) => boolean): T | undefined {
    for (const bucket of this.buckets) {
      if (bucket === undefined || bucket.live === 0) continue;
      const found = bucket.find(need, accepts);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** Every claim, in order. */
  *claims(): Iterable<T> {
    for (const bucket of this.buckets) {
      for (const claim of bucket?.slots ?? []) if (claim !== undefined) yield claim;
    }
  }

  private arrive(place: Place<T>): void {
    const { claim } = place;
    const bucket = this.bucket(claim.load);
    const slot = bucket.slots.length;
    bucket.slots.push(claim);
    bucket.live++;
    place.load = claim.load;
    place.slot = slot;
    const block = Math.floor(slot / BLOCK);
    if (slot % BLOCK === 0) {
      for (let m = 0; m < MEASURES; m++) bucket.tops[block * MEASURES + m] = measure(claim.room, m);
      return;
    }
    for (let m = 0; m < MEASURES; m++) {
      const t = block * MEASURES + m;
      bucket.tops[t] = Math.max(bucket.tops[t] ?? Number.NEGATIVE_INFINITY, measure(claim.room, m));
    }
  }

  private leave(place: Place<T>): void {
    const bucket = this.bucket(place.load);
    bucket.slots[place.slot] = undefined;
    bucket.live--;
    if (bucket.slots.length > 2 * BLOCK && bucket.live * 2 < bucket.slots.length) {
      this.compact(bucket);
    } else {
      bucket.refresh(Math.floor(place.slot / BLOCK));
    }
  }

  /** Drops the holes of a bucket that is mostly holes, keeping the order of those left. */
  private compact(bucket: Bucket<T>): void {
    bucket.slots = bucket.slots.filter((claim) => claim !== undefined);
    bucket.slots.forEach((claim, slot) => {
      const place = claim === undefined ? undefined : this.places.get(claim);
      if (place !== undefined) place.slot = slot;
    });
    bucket.tops = [];
    for (let block = 0; block * BLOCK < bucket.slots.length; block++) bucket.refresh(block);
  }

  private bucket(load: number): Bucket<T> {
    let bucket = this.buckets[load];
    if (bucket === undefined) this.buckets[load] = bucket = new Bucket<T>();
    return bucket;
  }
}
