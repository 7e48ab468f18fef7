/**
 * Narrowing a node claim's instance-type options as pods join it: each option must still
 * satisfy the claim's requirements, hold every pod plus its daemons, and have an available
 * offering (core: scheduling/nodeclaim.go, filterInstanceTypesByRequirements).
 */
import { formatRequirement } from '../requirements/requirement.ts';
import { intersectsReason, type Requirements } from '../requirements/requirements.ts';
import { firstShortfall, fits, formatResource, type Resources } from '../resources.ts';
import type { InstanceTypeOption } from './instance-type-option.ts';
import { type Unfit, unfit } from './unfit.ts';

/** The keys whose requirement object changed between two sets (the scheduler never edits in place). */
export function changedKeys(before: Requirements, after: Requirements): string[] {
  if (before === after) return [];
  const keys: string[] = [];
  for (const [key, req] of after) if (before.get(key) !== req) keys.push(key);
  return keys;
}

/** Explains an empty result; runs only after a failure, so it may take its time. */
export function explainNoOptions(
  candidates: readonly InstanceTypeOption[],
  requirements: Requirements,
  total: Resources,
): Unfit {
  const compatible = candidates.filter(
    (o) => intersectsReason(o.instanceType.requirements, requirements) === undefined,
  );
  if (compatible.length === 0) {
    const described = [...requirements.values()].map(formatRequirement).join(', ');
    return unfit('Requirements', `no instance type satisfies requirements ${described}`);
  }
  const fitting = compatible.filter((o) => fits(total, o.net));
  if (fitting.length === 0) {
    const largest = compatible.reduce<Record<string, number>>((acc, o) => {
      for (const name in o.net) acc[name] = Math.max(acc[name] ?? 0, o.net[name] ?? 0);
      return acc;
    }, {});
    const short = firstShortfall(total, largest);
    if (short !== undefined) {
      return unfit(
        'Resources',
        `no instance type has ${formatResource(short, total[short] ?? 0)} ${short}`,
      );
    }
    const wanted = Object.keys(total)
      .sort()
      .map((n) => `${n}=${formatResource(n, total[n] ?? 0)}`);
    return unfit('Resources', `no instance type fits ${wanted.join(', ')} at once`);
  }
  return unfit(
    'Offerings',
    'no instance type that fits has an available offering for these requirements',
  );
}
