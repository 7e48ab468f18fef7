/**
 * What each option of a pool's template would count against limits: its capacity, one node,
 * and the price of its cheapest offering the pool allows, so a tight cost limit leads to
 * cheaper types, or to spot where the pool allows it, rather than to no node at all.
 */
import { type Charge, chargeOf } from '../limits/limit-charge.ts';
import type { InstanceTypeOption } from './instance-type-option.ts';
import type { NodeClaimTemplate } from './node-claim-template.ts';
import { offeringFilter } from './offering-compatibility.ts';

export function optionCharges(template: NodeClaimTemplate): Map<InstanceTypeOption, Charge> {
  const accept = offeringFilter(template.requirements);
  return new Map(
    template.options.map((option) => {
      const prices = option.instanceType.offerings.filter(accept).map((o) => o.pricePerHour);
      const price = prices.length === 0 ? 0 : Math.min(...prices);
      return [option, chargeOf(option.instanceType.capacity, price)];
    }),
  );
}
