/**
 * A node claim the scheduler has finished filling: what plan assembly turns into a launch
 * decision (plan-assembly.ts). The scheduler's own claims (new-node-claim.ts) and those a
 * repacking made (packed-node-claim.ts) both are.
 */
import type { Requirements } from '../requirements/requirements.ts';
import type { Resources } from '../resources.ts';
import type { NodeClaimTemplate } from './node-claim-template.ts';
import type { SchedulingPod } from './scheduling-pod.ts';

export interface FilledNodeClaim {
  readonly template: NodeClaimTemplate;
  readonly requirements: Requirements;
  readonly pods: readonly SchedulingPod[];
  /** What its pods ask for together. */
  readonly requests: Resources;
  /** Whether the template's option at `index` can still launch it. */
  isOpen(index: number): boolean;
  /**
   * Claims that share this object have the same requirements and open options and are counted
   * in no ledger (no capacity reservation, no placement group): one instance selection serves
   * them all.
   */
  readonly alike?: object;
}
