/**
 * The scheduler's side of limits: what each option of a limited pool would count (its charge,
 * priced at its cheapest offering the pool allows, see option-charges.ts), which options a new
 * claim may start from, and whether a claim may grow. The charges of a template are computed
 * once per plan; a pool that no option fits any more is refused before a claim is even built.
 */
import type { ChargeVector, LimitBudget } from '../limits/limit-budget.ts';
import { floorOf } from '../limits/limit-budget.ts';
import type { LimitRefusal } from '../limits/limit-scope.ts';
import type { InstanceTypeOption } from './instance-type-option.ts';
import type { NewNodeClaim, Placement } from './new-node-claim.ts';
import type { NodeClaimTemplate } from './node-claim-template.ts';
import { optionCharges } from './option-charges.ts';

interface TemplateCharges {
  readonly charges: ReadonlyMap<InstanceTypeOption, ChargeVector>;
  /** The smallest of every key over the options. */
  readonly floor: ChargeVector;
}

/** How a claim of a pool may open: unlimited, limited to some options, or not at all. */
export type Opening =
  | { readonly kind: 'open'; readonly allowed?: (option: InstanceTypeOption) => boolean }
  | { readonly kind: 'refused'; readonly refusal: LimitRefusal };

const UNLIMITED: Opening = { kind: 'open' };

export class LimitedOptions {
  private readonly budget: LimitBudget;
  private readonly templates = new Map<string, TemplateCharges>();

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
      found = { charges, floor: floorOf(charges.values()) ?? [] };
      this.templates.set(template.name, found);
    }
    return found;
  }
}
