/**
 * YAML reads a key left empty (`taints:`) as null. The apiserver prunes nulls from fields that
 * are not nullable before it applies defaults, and no Karpenter field is nullable, so an empty key
 * means "not set" here too. List items are kept: a null entry is an error to report.
 */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (typeof value !== 'object' || value === null) return value;
  const kept = Object.entries(value).filter(([, field]) => field !== null);
  return Object.fromEntries(kept.map(([key, field]) => [key, dropNulls(field)]));
}
