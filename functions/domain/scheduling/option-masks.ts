/**
 * Per-template memo of which options survive a requirement, and of option prices under a set
 * of offering requirements. Claims opened from one NodePool narrow to the same few zones and
 * capacity types again and again, so each distinct narrowing is computed once per pass
 * instead of once per claim.
 */
import type { Offering } from '../instance-type.ts';
import type { Requirement } from '../requirements/requirement.ts';
import { keyConflict, type Requirements } from '../requirements/requirements.ts';
import type { InstanceTypeOption } from './instance-type-option.ts';
import { offeringFilter } from './offering-compatibility.ts';

export interface PricedIndex {
  readonly index: number;
  readonly offering: Offering;
}

function canonical(req: Requirement | undefined): string {
  if (req === undefined) return '*';
  const values = [...req.values].sort().join(',');
  return `${req.complement ? '!' : ''}${values}|${req.greaterThan ?? ''}|${req.lessThan ?? ''}`;
}

function cheapest(
  offerings: readonly Offering[],
  accept: (o: Offering) => boolean,
): Offering | undefined {
  let best: Offering | undefined;
  for (const o of offerings) {
    if (!accept(o)) continue;
    const cheaper = best === undefined || o.pricePerHour < best.pricePerHour;
    if (
      cheaper ||
      (best !== undefined && o.pricePerHour === best.pricePerHour && o.zone < best.zone)
    )
      best = o;
  }
  return best;
}

export class OptionMasks {
  private readonly options: readonly InstanceTypeOption[];
  private readonly offeringKeys: readonly string[];
  private readonly masks = new Map<string, Uint8Array>();
  private readonly prices = new Map<string, readonly PricedIndex[]>();
  /** Masks combined by `both`, by the two masks. */
  private readonly pairs = new WeakMap<Uint8Array, WeakMap<Uint8Array, Uint8Array>>();

  constructor(options: readonly InstanceTypeOption[], offeringKeys: readonly string[]) {
    this.options = options;
    this.offeringKeys = offeringKeys;
  }

  /** 1 where the option's instance type agrees with `reqs` on `key`. */
  keyMask(key: string, reqs: Requirements): Uint8Array {
    const id = `k:${key}=${canonical(reqs.get(key))}`;
    let mask = this.masks.get(id);
    if (mask === undefined) {
      mask = Uint8Array.from(this.options, (o) =>
        keyConflict(o.instanceType.requirements, reqs, key) === undefined ? 1 : 0,
      );
      this.masks.set(id, mask);
    }
    return mask;
  }

  /** 1 where the option has an available offering `reqs` allow. */
  offeringMask(reqs: Requirements): Uint8Array {
    const id = `o:${this.offeringId(reqs)}`;
    let mask = this.masks.get(id);
    if (mask === undefined) {
      const accept = offeringFilter(reqs);
      mask = Uint8Array.from(this.options, (o) => (o.instanceType.offerings.some(accept) ? 1 : 0));
      this.masks.set(id, mask);
    }
    return mask;
  }

  /** 1 where both masks have 1: what a claim's options must pass under two changed keys. */
  both(a: Uint8Array, b: Uint8Array): Uint8Array {
    let withA = this.pairs.get(a);
    if (withA === undefined) {
      withA = new WeakMap();
      this.pairs.set(a, withA);
    }
    let mask = withA.get(b);
    if (mask === undefined) {
      mask = a.map((bit, i) => bit & (b[i] ?? 0));
      withA.set(b, mask);
    }
    return mask;
  }

  /** Options with their cheapest allowed offering, cheapest first, then by instance type name. */
  priced(reqs: Requirements): readonly PricedIndex[] {
    const id = this.offeringId(reqs);
    let list = this.prices.get(id);
    if (list === undefined) {
      const accept = offeringFilter(reqs);
      const out: PricedIndex[] = [];
      this.options.forEach((o, index) => {
        const offering = cheapest(o.instanceType.offerings, accept);
        if (offering !== undefined) out.push({ index, offering });
      });
      list = out.sort(
        (a, b) =>
          a.offering.pricePerHour - b.offering.pricePerHour || this.byName(a.index, b.index),
      );
      this.prices.set(id, list);
    }
    return list;
  }

  private byName(a: number, b: number): number {
    const x = this.options[a]?.instanceType.name ?? '';
    const y = this.options[b]?.instanceType.name ?? '';
    return x < y ? -1 : x > y ? 1 : 0;
  }

  private offeringId(reqs: Requirements): string {
    return this.offeringKeys.map((k) => canonical(reqs.get(k))).join(';');
  }
}
