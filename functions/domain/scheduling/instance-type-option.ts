import type { InstanceType } from '../instance-type.ts';
import type { Resources } from '../resources.ts';

/** An instance type with what is left for pods once its daemons are placed. */
export interface InstanceTypeOption {
  readonly instanceType: InstanceType;
  readonly net: Resources;
}
