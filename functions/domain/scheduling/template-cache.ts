/**
 * NodeClaimTemplates kept with the instance-type list they were built from. Building one weighs
 * every instance type a pool allows (compatibility, offerings, daemons, prices), and the same
 * pools are planned with the same list many times: by provisioning and by each disruption
 * simulation of a pass, and pass after pass while the provider hands back the list it keeps, as
 * Karpenter's keeps built instance types (aws: pkg/providers/instancetype/instancetype.go).
 * A template is reused only for a pool and DaemonSets written exactly alike, so a plan is the
 * one a fresh template would give; a list no one holds any more takes its templates with it.
 */
import type { DaemonSet } from '../daemon-set.ts';
import type { InstanceType } from '../instance-type.ts';
import { KeptValues } from '../kept-values.ts';
import type { NodePool } from '../node-pool.ts';
import { type NodeClaimTemplate, nodeClaimTemplate } from './node-claim-template.ts';

/** Templates per list, past which a list's templates start over (pools edited again and again). */
const MAX_PER_LIST = 64;

const byInstanceTypes = new WeakMap<readonly InstanceType[], KeptValues<NodeClaimTemplate>>();

export function cachedNodeClaimTemplate(options: {
  readonly nodePool: NodePool;
  readonly instanceTypes: readonly InstanceType[];
  readonly daemonSets: readonly DaemonSet[];
}): NodeClaimTemplate {
  let templates = byInstanceTypes.get(options.instanceTypes);
  if (templates === undefined) {
    templates = new KeptValues(MAX_PER_LIST);
    byInstanceTypes.set(options.instanceTypes, templates);
  }
  const key = JSON.stringify([options.nodePool, options.daemonSets]);
  return templates.get(key, () => nodeClaimTemplate(options));
}
