/**
 * The new node claims of a pass in the order the scheduler offers them a pod (load-order.ts),
 * and the ways to find the first that takes a pod without asking every claim before it: by the
 * hostnames a pod is confined to, or within a view that leaves out claims which would refuse it.
 */
import {
  fits,
  type LoadedClaim,
  LoadOrder,
  orderOf,
  type Place,
  type RoomNeed,
} from './load-order.ts';

export type { ClaimRoom, LoadedClaim, RoomNeed } from './load-order.ts';

/**
 * A lasting test of claims: false for a claim only while that claim would refuse the pods that
 * ask with it, and changing for a claim only when the claim takes a pod (`moved`), so the claims
 * it holds for can be kept in order as they move rather than tested anew by every pod.
 */
export interface ClaimView<T> {
  /** Names the test: views with the same id test alike. */
  readonly id: string;
  readonly holds: (claim: T) => boolean;
}

/**
 * The claim `accepts` takes first when asked in `order` (one number per claim, least first),
 * the least picked each time rather than all of them sorted: few are ever asked.
 */
function firstInOrder<T>(
  candidates: T[],
  order: number[],
  accepts: (claim: T) => boolean,
): T | undefined {
  while (candidates.length > 0) {
    let least = 0;
    for (let i = 1; i < order.length; i++) if ((order[i] ?? 0) < (order[least] ?? 0)) least = i;
    const claim = candidates[least] as T;
    if (accepts(claim)) return claim;
    candidates[least] = candidates[candidates.length - 1] as T;
    order[least] = order[order.length - 1] ?? 0;
    candidates.pop();
    order.pop();
  }
  return undefined;
}

export class ClaimsByLoad<T extends LoadedClaim> {
  readonly all: T[] = [];
  private readonly order = new LoadOrder<T>();
  private readonly byHostname = new Map<string, Place<T>>();
  private readonly views = new Map<
    string,
    { readonly holds: (claim: T) => boolean; readonly order: LoadOrder<T> }
  >();

  add(claim: T): void {
    this.all.push(claim);
    this.byHostname.set(claim.hostname, this.order.add(claim));
    for (const view of this.views.values()) if (view.holds(claim)) view.order.add(claim);
  }

  /** The claim took a pod: it goes to the end of its new count, in every view that holds it. */
  moved(claim: T): void {
    this.order.moved(claim);
    for (const { holds, order } of this.views.values()) {
      const held = order.has(claim);
      if (holds(claim)) {
        if (held) order.moved(claim);
        else order.add(claim);
      } else if (held) order.remove(claim);
    }
  }

  /**
   * The first claim in order that has room for `need` and `accepts` the pod: only claims with
   * room are asked.
   */
  find(need: RoomNeed, accepts: (claim: T) => boolean): T | undefined {
    return this.order.find(need, accepts);
  }

  /**
   * What `find` answers when the claims `view` leaves out would refuse the pod: only the view's
   * claims, in the same order, are asked. A pod that anti-affinity keeps off every host already
   * running one of its kind, or a spread keeps to one zone, would otherwise be offered every
   * claim in turn (at 20,000 pods of Karpenter's benchmark mix, a million claims refused so).
   */
  findIn(view: ClaimView<T>, need: RoomNeed, accepts: (claim: T) => boolean): T | undefined {
    let known = this.views.get(view.id);
    if (known === undefined) {
      const order = new LoadOrder<T>();
      for (const claim of this.order.claims()) if (view.holds(claim)) order.add(claim);
      known = { holds: view.holds, order };
      this.views.set(view.id, known);
    }
    return known.order.find(need, accepts);
  }

  /**
   * What `find` answers when only claims on `hostnames` may accept: those claims are put in
   * order and asked, the others never looked at. A pod that hostname pod affinity confines to
   * the few hosts already running a selected pod would otherwise be offered every claim in turn
   * (nine in ten claims asked at 20,000 pods of Karpenter's benchmark mix were refused so).
   */
  findOnHosts(
    hostnames: ReadonlySet<string>,
    need: RoomNeed,
    accepts: (claim: T) => boolean,
  ): T | undefined {
    // The first in order usually accepts: find it in one pass, and list the rest only if not.
    let first: Place<T> | undefined;
    for (const hostname of hostnames) {
      const place = this.byHostname.get(hostname);
      if (place === undefined || !fits(place.claim.room, need)) continue;
      if (first === undefined || orderOf(place) < orderOf(first)) first = place;
    }
    if (first === undefined || accepts(first.claim)) return first?.claim;
    const candidates: T[] = [];
    const order: number[] = [];
    for (const hostname of hostnames) {
      const place = this.byHostname.get(hostname);
      if (place === undefined || place === first || !fits(place.claim.room, need)) continue;
      candidates.push(place.claim);
      order.push(orderOf(place));
    }
    return firstInOrder(candidates, order, accepts);
  }
}
