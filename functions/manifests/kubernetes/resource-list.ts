/**
 * Kubernetes ResourceLists (`{cpu: 500m, memory: 1Gi}`) read with the domain's quantity parser.
 * A malformed quantity is reported at its own field, e.g.
 * `spec.containers[1].resources.requests.memory: quantity "5 Gi" is not a valid Kubernetes quantity`.
 */
import { QuantityError } from '../../domain/quantity.ts';
import { EMPTY, parseResource, ResourceName, type Resources } from '../../domain/resources.ts';
import { type At, at, describe, type Fields, fieldError, optionalFields } from './fields.ts';

type Quantity = string | number;

function checkQuantity(value: unknown, position: At): Quantity {
  if (typeof value === 'string' || typeof value === 'number') return value;
  throw fieldError(position, `expected a quantity, got ${describe(value)}`);
}

/**
 * Parsed amounts by unit and text. A dump repeats the same few quantities thousands of times,
 * and exact parsing (BigInt) is the costly part of reading a container. Bounded, so a stream of
 * distinct quantities cannot grow it without limit.
 */
const parsed = new Map<string, number>();
const PARSED_LIMIT = 4096;

function parseQuantity(name: string, quantity: Quantity, position: At): number {
  const key = `${name === ResourceName.cpu ? 'm' : 'u'}${quantity}`;
  const known = parsed.get(key);
  if (known !== undefined) return known;
  if (parsed.size >= PARSED_LIMIT) parsed.clear();
  const amount = parseChecked(name, quantity, position);
  parsed.set(key, amount);
  return amount;
}

function parseChecked(name: string, quantity: Quantity, position: At): number {
  try {
    return parseResource(name, quantity);
  } catch (error) {
    if (error instanceof QuantityError) throw fieldError(position, error.message, error);
    throw error;
  }
}

/** A ResourceList parsed into `Resources`; undefined when absent. */
export function optionalResources(
  fields: Fields,
  key: string,
  parent: At | undefined,
): Resources | undefined {
  const list = optionalFields(fields, key, parent);
  if (list === undefined) return undefined;
  const position = at(parent, key);
  const out: Record<string, number> = {};
  for (const name in list) {
    const entry = at(position, name);
    out[name] = parseQuantity(name, checkQuantity(list[name], entry), entry);
  }
  return out;
}

/** A ResourceList checked but kept as written, for domain types that hold raw quantities. */
export function optionalQuantities(
  fields: Fields,
  key: string,
  parent: At | undefined,
): Readonly<Record<string, Quantity>> | undefined {
  const list = optionalFields(fields, key, parent);
  if (list === undefined) return undefined;
  const position = at(parent, key);
  for (const name in list) {
    const entry = at(position, name);
    parseQuantity(name, checkQuantity(list[name], entry), entry);
  }
  return list as Readonly<Record<string, Quantity>>;
}

/**
 * A container's requests. As the API server defaults them, a resource with a limit but no
 * request is requested at its limit.
 */
export function readRequests(resources: Fields, position: At): Resources {
  const requests = optionalResources(resources, 'requests', position) ?? EMPTY;
  const limits = optionalResources(resources, 'limits', position);
  if (limits === undefined) return requests;
  let merged: Record<string, number> | undefined;
  for (const name in limits) {
    if (requests[name] === undefined) {
      merged ??= { ...requests };
      merged[name] = limits[name] ?? 0;
    }
  }
  return merged ?? requests;
}
