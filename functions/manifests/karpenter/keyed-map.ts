/** A map whose keys come from a closed set, as the kubelet's reserved and eviction maps are. */
import * as z from 'zod';

/** `values` for each key; a key outside `allowed` is reported with the keys that are allowed. */
export function keyedMap<V extends z.ZodType>(
  field: string,
  allowed: readonly string[],
  values: V,
) {
  return z.record(z.string(), values).superRefine((map, ctx) => {
    for (const key of Object.keys(map)) {
      if (allowed.includes(key)) continue;
      ctx.addIssue({
        code: 'custom',
        message: `"${key}" is not a valid key for ${field}; valid keys are ${allowed.join(', ')}`,
        path: [key],
      });
    }
  });
}
