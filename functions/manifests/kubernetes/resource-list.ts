/**
 * Kubernetes ResourceLists (`{cpu: 500m, memory: 1Gi}`) read with the domain's quantity parser.
 * A malformed quantity is reported at its own field, e.g.
 * `spec.containers[1].resources.requests.memory: quantity "5 Gi" is not a valid Kubernetes quantity`.
 */
import * as z from 'zod';
import { QuantityError } from '../../domain/quantity.ts';
import { EMPTY, parseResource, ResourceName, type Resources } from '../../domain/resources.ts';
import { describeValue } from '../issue-messages.ts';
import { checkedMapping, optional } from './schema.ts';

type Quantity = string | number;

/**
 * Parsed amounts by unit and text. A dump repeats the same few quantities thousands of times,
 * and exact parsing (BigInt) is the costly part of reading a container. Bounded, so a stream of
 * distinct quantities cannot grow it without limit.
 */
const parsed = new Map<string, number>();
const PARSED_LIMIT = 4096;

function parseQuantity(name: string, quantity: Quantity): number {
  const key = `${name === ResourceName.cpu ? 'm' : 'u'}${quantity}`;
  const known = parsed.get(key);
  if (known !== undefined) return known;
  if (parsed.size >= PARSED_LIMIT) parsed.clear();
  const amount = parseResource(name, quantity);
  parsed.set(key, amount);
  return amount;
}

/** Why an entry is not a quantity, or undefined when it is one. */
function problemOf(name: string, quantity: unknown): string | undefined {
  if (typeof quantity !== 'string' && typeof quantity !== 'number') {
    return `must be a quantity, got ${describeValue(quantity)}`;
  }
  try {
    parseQuantity(name, quantity);
    return undefined;
  } catch (error) {
    if (error instanceof QuantityError) return error.message;
    throw error;
  }
}

/** Every entry checked where it lies; a bad quantity is reported at its own key. */
const rawList = checkedMapping<Quantity>(problemOf);

/** A ResourceList parsed into `Resources`; undefined when absent. */
export const resources = optional(
  rawList.transform((list): Resources => {
    const out: Record<string, number> = {};
    for (const name in list) out[name] = parseQuantity(name, list[name] as Quantity);
    return out;
  }),
);

/** A ResourceList checked but kept as written, for domain types that hold raw quantities. */
export const quantities = optional(rawList);

/**
 * A container's requests. As the API server defaults them, a resource with a limit but no
 * request is requested at its limit.
 */
export const requests = optional(z.object({ requests: resources, limits: resources })).transform(
  (list): Resources => {
    const requested = list?.requests ?? EMPTY;
    const limits = list?.limits;
    if (limits === undefined) return requested;
    let merged: Record<string, number> | undefined;
    for (const name in limits) {
      if (requested[name] === undefined) {
        merged ??= { ...requested };
        merged[name] = limits[name] ?? 0;
      }
    }
    return merged ?? requested;
  },
);
