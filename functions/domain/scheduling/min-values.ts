/**
 * `minValues`: a requirement may demand that the instance-type options of a node claim keep at
 * least N distinct values of its key (for example five instance families for spot diversity).
 */
import { has, type Requirement } from '../requirements/requirement.ts';
import type { Requirements } from '../requirements/requirements.ts';
import type { InstanceTypeOption } from './instance-type-option.ts';

export function withMinValues(reqs: Requirements): readonly Requirement[] {
  const out: Requirement[] = [];
  for (const req of reqs.values()) if (req.minValues !== undefined) out.push(req);
  return out;
}

function distinctValues(options: readonly InstanceTypeOption[], req: Requirement): number {
  const seen = new Set<string>();
  for (const { instanceType } of options) {
    const values = instanceType.requirements.get(req.key);
    if (values === undefined || values.complement) continue;
    for (const value of values.values) if (has(req, value)) seen.add(value);
  }
  return seen.size;
}

/** The first requirement whose minimum the options no longer meet, or undefined. */
export function unmetMinValues(
  options: readonly InstanceTypeOption[],
  flexible: readonly Requirement[],
): Requirement | undefined {
  return flexible.find((req) => distinctValues(options, req) < (req.minValues ?? 0));
}
