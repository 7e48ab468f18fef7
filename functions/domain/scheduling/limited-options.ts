/**
 * The scheduler's side of limits: what each option of a limited pool would count (its charge,
 * priced at its cheapest offering the pool allows, see option-charges.ts), which options a new
 * claim may start from, and whether a claim may grow. The charges of a template are computed
 * once per plan; a pool that no option fits any more is refused before a claim is even built.
 */
import type { ChargeVector, LimitBudget } from '../limits/limit-budget.ts';
import { ceilingOf, floorOf } from '../limits/limit-budget.ts';
import type { LimitRefusal } from '../limits/limit-scope.ts';
import type { InstanceTypeOption } from './instance-type-option.ts';
import type { NewNodeClaim, Placement } from './new-node-claim.ts';
import type { NodeClaimTemplate } from './node-claim-template.ts';
import { optionCharges } from './option-charges.ts';
import type { SchedulingPod } from './scheduling-pod.ts';

/** The least a claim must grow by to change its cheapest option, computed for that option. */
interface GrowthFloor {
  readonly from: InstanceTypeOption;
  readonly floor: ChargeVector | undefined;
}

interface TemplateCharges {
  readonly charges: ReadonlyMap<InstanceTypeOption, ChargeVector>;
  /** The smallest of every key over the options. */
  readonly floor: ChargeVector;
  /** The largest of every key: while the limits afford it, any growth fits. */
  readonly ceiling: ChargeVector;
}

/** How a claim of a pool may open: unlimited, limited to some options, or not at all. */
export type Opening =
  | { readonly kind: 'open'; readonly allowed?: (option: InstanceTypeOption) => boolean }
  | { readonly kind: 'refused'; readonly refusal: LimitRefusal };

const UNLIMITED: Opening = { kind: 'open' };

export class LimitedOptions {
  private readonly budget: LimitBudget;
  private readonly templates = new Map<string, TemplateCharges>();
  private readonly growthFloors = new WeakMap<NewNodeClaim, GrowthFloor>();

  constructor(budget: LimitBudget) {
    this.budget = budget;
  }

  opening(template: NodeClaimTemplate): Opening {
    const pool = template.name;
    if (!this.budget.isLimited(pool)) return UNLIMITED;
    const { charges, floor } = this.of(template);
    const short = this.budget.refusal(pool, floor);
    if (short !== undefined) return { kind: 'refused', refusal: short };
    const allowed = (o: InstanceTypeOption) => this.budget.allows(pool, charges.get(o) ?? []);
    return { kind: 'open', allowed };
  }

  /** Whether any limit, the pool's or the cluster's, counts the pool's claims. */
  isLimited(template: NodeClaimTemplate): boolean {
    return this.budget.isLimited(template.name);
  }

  /** A claim just opened counts as its cheapest option. */
  opened(claim: NewNodeClaim): void {
    if (this.budget.isLimited(claim.template.name))
      this.budget.take(claim.template.name, this.chargeOf(claim));
  }

  /** A limited pool's claim may take a pod only if the limits have room for what it grows into. */
  admits(claim: NewNodeClaim, placement: Placement): boolean {
    const pool = claim.template.name;
    if (!this.budget.isLimited(pool)) return true;
    const before = claim.cheapest();
    const after = claim.cheapest(placement);
    if (before === after) return true;
    return this.budget.grow(pool, this.chargeOf(claim, before), this.chargeOf(claim, after));
  }

  /**
   * False when the claim certainly cannot take the pod: the pod would not fit its cheapest
   * option, and the limits cannot afford even the least growth to any other. This spares the
   * full placement once a limit binds and every pod left is offered to every claim. A floor
   * worked out when the claim had more options is lower, so a stale one only says true.
   */
  mayTake(claim: NewNodeClaim, pod: SchedulingPod): boolean {
    const pool = claim.template.name;
    if (!this.budget.isLimited(pool) || claim.fitsCheapest(pod)) return true;
    const from = claim.cheapest();
    if (from === undefined || this.budget.affords(pool, this.of(claim.template).ceiling)) {
      return true;
    }
    let known = this.growthFloors.get(claim);
    if (known?.from !== from) {
      known = { from, floor: this.growthFloor(claim, from) };
      this.growthFloors.set(claim, known);
    }
    return known.floor === undefined || this.budget.affords(pool, known.floor);
  }

  private growthFloor(claim: NewNodeClaim, from: InstanceTypeOption): ChargeVector | undefined {
    const base = this.chargeOf(claim, from);
    const growths = claim.options
      .filter((o) => o !== from)
      .map((o) => this.chargeOf(claim, o).map((amount, i) => amount - (base[i] ?? 0n)));
    return floorOf(growths);
  }

  private chargeOf(claim: NewNodeClaim, option = claim.cheapest()): ChargeVector {
    if (option === undefined) return [];
    return this.of(claim.template).charges.get(option) ?? [];
  }

  private of(template: NodeClaimTemplate): TemplateCharges {
    let found = this.templates.get(template.name);
    if (found === undefined) {
      const charges = new Map(
        [...optionCharges(template)].map(([option, charge]) => [
          option,
          this.budget.vector(charge),
        ]),
      );
      const all = [...charges.values()];
      found = { charges, floor: floorOf(all) ?? [], ceiling: ceilingOf(all) };
      this.templates.set(template.name, found);
    }
    return found;
  }
}
