/**
 * The hourly-cost limit: US dollars per hour, a key NodePool `spec.limits` and the cluster's
 * limits may carry beside Kubernetes resources. It is a valid resource name, so the same YAML
 * passes Karpenter's CRD (which ignores it). Counted in micro-dollars, so sums stay exact.
 */
export const HOURLY_COST = 'nodesmith.io/hourly-cost';

const MICROS_PER_DOLLAR = 1_000_000;

/** A price per hour in whole micro-dollars (prices carry at most six decimals). */
export function microDollars(pricePerHour: number): number {
  return Math.round(pricePerHour * MICROS_PER_DOLLAR);
}

/** Micro-dollars for people: `$248.10`. */
export function formatDollars(micros: bigint | number): string {
  return `$${(Number(micros) / MICROS_PER_DOLLAR).toFixed(2)}`;
}
