/**
 * Building blocks of the Kubernetes object schemas (zod, as the Karpenter ones), and the one
 * way a document is read against them. Objects keep only the fields a reader declares: kubectl
 * output carries many more, and they are none of our business, so they are neither checked nor
 * copied. As in the API server, `null` counts as absent: every optional field accepts it, and
 * `defined` drops it from the domain objects.
 */
import * as z from 'zod';
import { describeIssue, describeValue } from '../issue-messages.ts';
import { isObjectFields } from '../object-fields.ts';
import { toManifestError } from '../to-manifest-error.ts';

export const text = z.string();
export const integer = z.int();
export const flag = z.boolean();
/**
 * A mapping checked entry by entry where it lies: a record schema would copy it, and pods carry
 * large ones (annotations, kubectl's last-applied-configuration among them). `problem` says what
 * is wrong with one entry, which is then reported at its own key.
 */
export function checkedMapping<V>(problem: (key: string, value: unknown) => string | undefined) {
  return z.unknown().transform((value, ctx): Readonly<Record<string, V>> => {
    if (!isObjectFields(value)) {
      const message = `must be a mapping, got ${describeValue(value)}`;
      ctx.addIssue({ code: 'custom', message, input: value });
      return z.NEVER;
    }
    for (const key in value) {
      const message = problem(key, value[key]);
      if (message !== undefined) {
        ctx.addIssue({ code: 'custom', message, path: [key], input: value[key] });
      }
    }
    return value as Readonly<Record<string, V>>;
  });
}

/** Labels, annotations, a nodeSelector. */
export const stringMap = checkedMapping<string>((_, value) =>
  typeof value === 'string' ? undefined : `must be a string, got ${describeValue(value)}`,
);

/**
 * An optional field: absent or `null`. The readers' mappers pass both on through `defined`,
 * which drops them; a transform per field would cost a pass over 20,000 pods a third more.
 */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish();
}

/** An optional list. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.array(item).nullish();
}

/** A list read as empty when absent. */
export function listOrEmpty<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullish()
    .transform((value) => value ?? []);
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values);
}

/** Serialized objects carry RFC 3339 text; `@kubernetes/client-node` objects carry Dates. */
export const timestamp = z
  .union([z.string(), z.date()], {
    error: (issue) => `must be a timestamp, got ${describeValue(issue.input)}`,
  })
  .transform((value) => (typeof value === 'string' ? value : value.toISOString()));

/** An object's fields with `null` taken out of their types: what `defined` returns. */
export type Defined<T> = { [K in keyof T]: Exclude<T[K], null> };

/**
 * The value without its undefined and null properties, so that mapped objects carry exactly
 * the fields that were set, as the domain's optional fields expect.
 */
export function defined<T extends object>(value: T): Defined<T> {
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const field = value[key];
    if (field !== undefined && field !== null) out[key] = field;
  }
  return out as Defined<T>;
}

/**
 * Reads of one schema after which it is compiled: zod's compile generates code that reads a valid
 * object in about half the time and hands anything else to the ordinary parser, which then
 * words the error exactly as before. Compiling costs as much as a few hundred reads, so a schema
 * read a handful of times (a file's NodePools) is never compiled; a dump's pods are.
 */
const COMPILE_AFTER = 200;

interface SchemaReads {
  count: number;
  compiled?: z.ZodType;
}

const reads = new WeakMap<z.ZodType, SchemaReads>();

/** The schema to read with now: the schema itself, or once it has been read often, its compiled clone. */
function readerOf<S extends z.ZodType>(schema: S): S {
  let known = reads.get(schema);
  if (known === undefined) {
    known = { count: 0 };
    reads.set(schema, known);
  }
  if (known.compiled !== undefined) return known.compiled as S;
  if (++known.count > COMPILE_AFTER) known.compiled = z.compile(schema);
  return schema;
}

/** Reads an object against a schema; throws ManifestError naming the first bad field's path. */
export function readWith<S extends z.ZodType>(schema: S, object: unknown): z.output<S> {
  const result = readerOf(schema).safeParse(object, { error: describeIssue, reportInput: true });
  if (!result.success) throw toManifestError(result.error);
  return result.data;
}
