/**
 * String formats of the Kubernetes and Karpenter APIs, as the apiserver and Karpenter's CRD
 * patterns check them (k8s.io/apimachinery validation; karpenter.sh CRD `pattern`s).
 */
import { isQuantity } from '../../domain/quantity.ts';

const DNS_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS_SUBDOMAIN = new RegExp(`^${DNS_LABEL}(\\.${DNS_LABEL})*$`);
const QUALIFIED_NAME_PART = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** `720h`, `1h30m`, `90s` (Karpenter accepts only s, m and h units). */
export const DURATION = /^([0-9]+(s|m|h))+$/;
/** A duration, or `Never` to turn the behaviour off. */
export const DURATION_OR_NEVER = /^(([0-9]+(s|m|h))+|Never)$/;
/** A budget window: minutes and hours only, as cron has no seconds; `0s` is tolerated at the end. */
export const BUDGET_DURATION = /^(([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?$/;
/** Five cron fields or a macro; Karpenter evaluates schedules in UTC and rejects time zones. */
export const CRON_SCHEDULE =
  /^(@(annually|yearly|monthly|weekly|daily|midnight|hourly)|[^\s]+(\s+[^\s]+){4})$/;
/** An integer count or a percentage up to 100%. */
export const NODE_COUNT = /^((100|[0-9]{1,2})%|[0-9]+)$/;
/** A Go duration as kubelet reads it (`1m30s`, `500ms`). */
export const GO_DURATION = /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/;
/** RFC 3339 as the apiserver writes metav1.Time. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** A percentage with at most two decimals, 0-100%, as eviction thresholds take it. */
const PERCENTAGE = /^(\d{1,2}(\.\d{1,2})?|100(\.0{1,2})?)%$/;

export function isDnsSubdomain(text: string): boolean {
  return text.length <= 253 && DNS_SUBDOMAIN.test(text);
}

/** `prefix/name` or `name`: a label key, a taint key (validation.IsQualifiedName). */
export function isQualifiedName(text: string): boolean {
  const slash = text.lastIndexOf('/');
  const name = slash < 0 ? text : text.slice(slash + 1);
  const prefix = slash < 0 ? undefined : text.slice(0, slash);
  if (prefix !== undefined && (prefix === '' || !isDnsSubdomain(prefix))) return false;
  return name.length <= 63 && QUALIFIED_NAME_PART.test(name);
}

export function isLabelValue(text: string): boolean {
  return text.length <= 63 && LABEL_VALUE.test(text);
}

/** An eviction threshold: a percentage of the resource or an absolute quantity. */
export function isEvictionThreshold(text: string): boolean {
  return PERCENTAGE.test(text) || isQuantity(text);
}
