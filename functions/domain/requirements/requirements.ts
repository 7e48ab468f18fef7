/**
 * A set of label requirements keyed by label. Adding requirements intersects them per key;
 * compatibility follows Karpenter: custom labels must be defined by the node side, well-known
 * labels may be left undefined (core: pkg/scheduling/requirements.go).
 */
import { isRestrictedNodeLabel, WELL_KNOWN_LABELS } from '../labels.ts';
import {
  allowsAbsence,
  anyValue,
  formatRequirement,
  fromNodeSelectorRequirement,
  has,
  intersect,
  type NodeSelectorRequirement,
  operatorOf,
  overlaps,
  type Requirement,
  requirement,
} from './requirement.ts';

export type Requirements = ReadonlyMap<string, Requirement>;

export const NO_REQUIREMENTS: Requirements = new Map();

export function requirementsOf(list: Iterable<Requirement>): Requirements {
  const out = new Map<string, Requirement>();
  for (const req of list) {
    const existing = out.get(req.key);
    out.set(req.key, existing === undefined ? req : intersect(existing, req));
  }
  return out;
}

export function fromNodeSelector(
  list: readonly NodeSelectorRequirement[] | undefined,
): Requirements {
  return requirementsOf((list ?? []).map(fromNodeSelectorRequirement));
}

/** Labels as requirements: each key must have exactly that value. */
export function fromLabels(labels: Readonly<Record<string, string>> | undefined): Requirements {
  return requirementsOf(
    Object.entries(labels ?? {}).map(([key, value]) => requirement(key, 'In', [value])),
  );
}

/** Intersects every key of `b` into `a`. Returns `a` itself when `b` is empty. */
export function add(a: Requirements, b: Requirements): Requirements {
  if (b.size === 0) return a;
  if (a.size === 0) return b;
  const out = new Map(a);
  for (const [key, req] of b) {
    const existing = out.get(key);
    out.set(key, existing === undefined ? req : intersect(existing, req));
  }
  return out;
}

/** A requirement for the key, or `Exists` when the set does not constrain it. */
export function get(reqs: Requirements, key: string): Requirement {
  return reqs.get(key) ?? requirement(key, 'Exists');
}

/**
 * Why `incoming` cannot be met on a node described by `existing`, or undefined when it can.
 * Keys on both sides must share a value (unless both sides only exclude values).
 */
export function intersectsReason(
  existing: Requirements,
  incoming: Requirements,
): string | undefined {
  const [small, large] =
    existing.size <= incoming.size ? [existing, incoming] : [incoming, existing];
  for (const key of small.keys()) {
    if (!large.has(key)) continue;
    const reason = keyConflict(existing, incoming, key);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** Why the two sets disagree on one key, or undefined when they agree (or one lacks the key). */
export function keyConflict(
  existing: Requirements,
  incoming: Requirements,
  key: string,
): string | undefined {
  const a = existing.get(key);
  const b = incoming.get(key);
  if (a === undefined || b === undefined || overlaps(a, b)) return undefined;
  if (allowsAbsence(a) && allowsAbsence(b)) return undefined;
  return `incompatible requirements, key ${key}, ${formatRequirement(b)} not in ${formatRequirement(a)}`;
}

/**
 * Why a pod's requirements (`incoming`) cannot be met by a NodePool, claim or instance type
 * (`existing`), or undefined when they can. A custom label the node side does not define can
 * only be required to be absent; well-known labels may be undefined on the node side.
 */
export function compatibilityReason(
  existing: Requirements,
  incoming: Requirements,
  allowUndefinedWellKnown = true,
): string | undefined {
  for (const [key, req] of incoming) {
    if (existing.has(key) || allowsAbsence(req)) continue;
    if (allowUndefinedWellKnown && WELL_KNOWN_LABELS.has(key)) continue;
    return `label "${key}" does not have known values`;
  }
  return intersectsReason(existing, incoming);
}

export function isCompatible(
  existing: Requirements,
  incoming: Requirements,
  allowUndefinedWellKnown = true,
): boolean {
  return compatibilityReason(existing, incoming, allowUndefinedWellKnown) === undefined;
}

/** Whether concrete labels satisfy every requirement (a missing label satisfies only NotIn / DoesNotExist). */
export function labelsSatisfy(
  labels: Readonly<Record<string, string>>,
  reqs: Requirements,
): boolean {
  for (const [key, req] of reqs) {
    const value = labels[key];
    if (value === undefined ? !allowsAbsence(req) : !has(req, value)) return false;
  }
  return true;
}

/**
 * The custom labels a node created from these requirements carries: one value for every
 * unrestricted key that allows one, so the node satisfies what it was planned against. An
 * open-ended requirement (`team Exists`) gets a generated value, as Karpenter generates one
 * (core: nodeclaimtemplate.go, resolveCustomLabelsFromRequirements).
 */
export function customLabels(reqs: Requirements): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [key, req] of reqs) {
    if (isRestrictedNodeLabel(key)) continue;
    const value = anyValue(req);
    if (value !== undefined) labels[key] = value;
  }
  return labels;
}

/**
 * One requirement in the Kubernetes shape. Bounds are written inclusively (`Gte`, `Lte`), as
 * Karpenter writes them, so `Gte 0` stays non-negative; a requirement with values and bounds, or
 * with both bounds, becomes several entries on the same key, which Kubernetes ANDs.
 */
function toSelectorEntries(req: Requirement): NodeSelectorRequirement[] {
  const operator = operatorOf(req);
  const entries: NodeSelectorRequirement[] = [];
  if (operator !== 'Gt' && operator !== 'Lt') {
    entries.push({ key: req.key, operator, values: [...req.values].sort() });
  }
  if (req.greaterThan !== undefined) {
    entries.push({ key: req.key, operator: 'Gte', values: [String(req.greaterThan + 1)] });
  }
  if (req.lessThan !== undefined) {
    entries.push({ key: req.key, operator: 'Lte', values: [String(req.lessThan - 1)] });
  }
  return req.minValues === undefined
    ? entries
    : entries.map((entry) => ({ ...entry, minValues: req.minValues }));
}

/** Back to the Kubernetes shape, sorted by key: what a NodeClaim's spec carries. */
export function toNodeSelector(reqs: Requirements): NodeSelectorRequirement[] {
  return [...reqs.values()]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .flatMap(toSelectorEntries);
}
