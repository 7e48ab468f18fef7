/**
 * Kinds read and ignored that could change what Karpenter would do, each with why. Everything
 * else a dump holds (Services, ConfigMaps, Ingresses, RBAC…) has no bearing on which nodes are
 * launched and is ignored silently; these are named so that a plan is not trusted further than
 * its input. Keys are `group/kind`, the core group empty.
 */
const MIGHT_MATTER: ReadonlyMap<string, string> = new Map([
  ['autoscaling/HorizontalPodAutoscaler', 'would change the number of pods'],
  ['/LimitRange', 'would give pods without requests default requests'],
  ['/ResourceQuota', 'could keep pods from being created'],
]);

/** Whether a kind nothing reads is one a user may expect to matter. */
export function mightMatter(group: string, kind: string): boolean {
  return MIGHT_MATTER.has(`${group}/${kind}`);
}

function kindOf(key: string): string {
  return key.slice(key.indexOf('/') + 1);
}

/** One line naming the ignored kinds that could change the answer, by kind; undefined when none. */
export function ignoredKindsWarning(keys: readonly string[]): string | undefined {
  const unique = [...new Set(keys)].sort((a, b) => kindOf(a).localeCompare(kindOf(b)));
  if (unique.length === 0) return undefined;
  const named = unique.map((key) => `${kindOf(key)} (${MIGHT_MATTER.get(key)})`);
  return `ignored, though they could change the answer: ${named.join(', ')}`;
}
