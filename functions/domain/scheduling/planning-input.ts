/**
 * The planner's input from a cluster snapshot, made the same way by every caller: the
 * controller's provisioning and disruption, the API's dry run, `nodesmith plan` and
 * `nodesmith disruption`. Every object of the snapshot goes through as it is, so a kind the
 * snapshot gains reaches every plan at once; namespaces become the labels pod affinity's
 * namespace selectors match. What the cluster does not hold — the instance types, the region,
 * and the controller's limit charges, time box and Unschedulable mark — the caller adds.
 */
import type { ClusterSnapshot } from '../cluster-snapshot.ts';
import type { ProvisioningInput } from './plan-provisioning.ts';

/** Everything the planner takes that is not in the snapshot. */
export type PlanningSettings = Omit<ProvisioningInput, keyof ClusterSnapshot>;

/** Provisioning's input, with the PodDisruptionBudgets disruption reads besides. */
export type PlanningInput = ProvisioningInput & Pick<ClusterSnapshot, 'podDisruptionBudgets'>;

/**
 * @example
 * const plan = planProvisioning(planningInput(snapshot, { instanceTypes, region }));
 */
export function planningInput(
  snapshot: ClusterSnapshot,
  settings: PlanningSettings,
): PlanningInput {
  const { namespaces, ...objects } = snapshot;
  return {
    ...objects,
    namespaces: new Map(namespaces.map((namespace) => [namespace.name, namespace.labels])),
    ...settings,
  };
}
