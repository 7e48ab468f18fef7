/** What voluntary disruption decides from: the planning snapshot plus budgets, time and nominations. */
import type { InstanceNetwork } from '../instance-network.ts';
import type { PodDisruptionBudget } from '../pod-disruption-budget.ts';
import type { ProvisioningInput } from '../scheduling/plan-provisioning.ts';
import type { CronSchedules } from './budgets.ts';

export interface DisruptionInput
  extends Omit<ProvisioningInput, 'requireUnschedulableMark' | 'outOfTime'> {
  readonly podDisruptionBudgets: readonly PodDisruptionBudget[];
  /** The instant decisions are made for, in epoch milliseconds (the domain reads no clock). */
  readonly nowMs: number;
  readonly cron: CronSchedules;
  /**
   * Nodes that pending pods were just placed on (provisioning's plan): they are left alone for
   * the nomination window, so the pods find them when they arrive.
   */
  readonly nominated?: ReadonlySet<string>;
  /**
   * Evaluate every consolidation candidate, to say why each one stays (the `disruption`
   * command); the controller stops at the first command, as Karpenter does.
   */
  readonly explain?: boolean;
  /**
   * What each claim's instance was launched into, by NodeClaim name: the controller's records
   * know it. A NodeClaim does not carry it, so a dump's nodes are not judged for subnet or
   * security group drift.
   */
  readonly networks?: ReadonlyMap<string, InstanceNetwork>;
  /** The caller's time box, asked between simulations. */
  readonly outOfTime?: () => boolean;
}
