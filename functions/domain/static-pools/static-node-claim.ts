/**
 * The claim a static NodePool launches: its template and nothing else — no pod narrows it — on
 * the cheapest compatible offering (core: static/provisioning/controller.go builds it with
 * `scheduling.NewNodeClaimTemplate`, and the cloud provider launches the cheapest of every type
 * the template allows). Static drift launches the same claim as a drifted node's replacement.
 */
import type { DaemonSet } from '../daemon-set.ts';
import type { InstanceType } from '../instance-type.ts';
import type { NodePool } from '../node-pool.ts';
import { selectInstances } from '../scheduling/instance-selection.ts';
import { NewNodeClaim } from '../scheduling/new-node-claim.ts';
import { plannedClaim } from '../scheduling/plan-assembly.ts';
import type { PlannedNodeClaim } from '../scheduling/provisioning-plan.ts';
import { cachedNodeClaimTemplate } from '../scheduling/template-cache.ts';

export interface StaticClaimInput {
  readonly nodePool: NodePool;
  /** The instance types the pool may use, priced and marked available. */
  readonly instanceTypes: readonly InstanceType[];
  /** Their overhead decides which types have room left for anything. */
  readonly daemonSets: readonly DaemonSet[];
  readonly region?: string | undefined;
}

/** The pool's claim, named `<pool>-<index>`; undefined when no offering is available. */
export function staticNodeClaim(input: StaticClaimInput, index = 0): PlannedNodeClaim | undefined {
  const template = cachedNodeClaimTemplate(input);
  if (template.options.length === 0) return undefined;
  const claim = new NewNodeClaim({ template, index });
  const selection = selectInstances({
    template,
    requirements: claim.requirements,
    isOpen: (i) => claim.isOpen(i),
  });
  const name = `${template.name}-${index}`;
  return selection && plannedClaim(claim, name, selection, input.region);
}
