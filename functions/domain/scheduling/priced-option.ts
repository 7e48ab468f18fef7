import type { InstanceType, Offering } from '../instance-type.ts';

/** An option of a claim with the offering it ranks by: the cheapest one its requirements allow. */
export interface PricedOption {
  readonly instanceType: InstanceType;
  readonly offering: Offering;
}
