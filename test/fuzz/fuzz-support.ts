/**
 * What the fuzz suites share: how many cases to run (`NODESMITH_FUZZ_RUNS`, 10,000 under
 * `npm run fuzz`, a few dozen inside `npm test`), the seed to repeat a run
 * (`NODESMITH_FUZZ_SEED`), and generators of hostile text and of damaged documents.
 */
import fc from 'fast-check';
import { aliasChain, nested } from '../support/hostile-documents.ts';

const runs = Number(process.env.NODESMITH_FUZZ_RUNS ?? 60);
const seed = process.env.NODESMITH_FUZZ_SEED;

/** fast-check parameters for one property; a failure prints the seed and path to repeat it. */
export const FUZZ: fc.Parameters<unknown> = {
  numRuns: runs,
  ...(seed === undefined ? {} : { seed: Number(seed) }),
};

/** Time for one property: 60 ms a case (one that reaches the API server takes tens), at least the default. */
export const FUZZ_TIMEOUT = Math.max(30_000, runs * 60);

/** Characters that mean something to YAML or JSON, and a few that mean trouble. */
const SYNTAX = [...'{}[]:,-?&*!|>\'"%@`#\n\t \\0aZ._/~'];

export const yamlishText = fc.string({ unit: fc.constantFrom(...SYNTAX), maxLength: 200 });

/** Strings any caller might send: printable, unicode, control characters, and syntax. */
export const anyText = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  yamlishText,
);

/** Keys that attack JavaScript objects, and ordinary ones. */
export const hostileKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
);

/** Documents that attack their reader: alias chains, deep nesting in either syntax, prototype keys. */
export const hostileDocument = fc.oneof(
  fc.integer({ min: 5, max: 9 }).map((levels) => aliasChain(levels)),
  fc
    .tuple(
      fc.constantFrom(['[', ']'], ['{a: ', '}'], ['{"a":', '}']),
      fc.integer({ min: 90, max: 3000 }),
    )
    .map(
      ([[open, close], depth]) =>
        `apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  labels: {x: ${nested(open as string, close as string, depth)}}\n`,
    ),
  fc
    .integer({ min: 90, max: 400 })
    .map(
      (depth) =>
        `apiVersion: v1\nkind: Pod\nmetadata:\n${Array.from({ length: depth }, (_, i) => `${' '.repeat(2 + i)}k${i}:\n`).join('')}`,
    ),
  hostileKey.map(
    (key) => `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","${key}":{"x":1}}}`,
  ),
);

/** `text` with a few characters inserted, removed or replaced at random places. */
export function damaged(text: string): fc.Arbitrary<string> {
  const edit = fc.record({
    at: fc.nat({ max: Math.max(text.length - 1, 0) }),
    remove: fc.nat({ max: 3 }),
    insert: fc.oneof(
      yamlishText.map((s) => s.slice(0, 4)),
      fc.constant(''),
      hostileKey,
    ),
  });
  return fc
    .array(edit, { minLength: 1, maxLength: 4 })
    .map((edits) =>
      edits.reduce(
        (t, { at, remove, insert }) => t.slice(0, at) + insert + t.slice(at + remove),
        text,
      ),
    );
}

/** Every path to a value inside `value`, the root included. */
function pathsOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const here = [path];
  if (Array.isArray(value)) return here.concat(...value.map((v, i) => pathsOf(v, [...path, i])));
  if (typeof value === 'object' && value !== null) {
    return here.concat(...Object.entries(value).map(([k, v]) => pathsOf(v, [...path, k])));
  }
  return here;
}

function replaced(value: unknown, path: readonly (string | number)[], by: unknown): unknown {
  if (path.length === 0) return by;
  // An earlier change may have replaced what the path goes through: it is gone, nothing to do.
  if (typeof value !== 'object' || value === null) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? replaced(v, rest, by) : v));
  const object = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(object).map(([k, v]) => [k, k === head ? replaced(v, rest, by) : v]),
  );
}

/** A removed marker: the field is left out rather than replaced. */
const REMOVED = Symbol('removed');

function withoutRemoved(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== REMOVED).map(withoutRemoved);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== REMOVED)
      .map(([k, v]) => [k, withoutRemoved(v)]),
  );
}

/** A JSON value as shapes go wrong: any JSON, or a long, empty, hostile or odd scalar. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('', ' ', '-1', '1e309', 'NaN', '0x10', 'null', '9'.repeat(400), '__proto__'),
  fc.constantFrom(REMOVED, null, -1, 0, 1.5, 2 ** 53, true, [], {}),
);

/** `base` with one to three of its values replaced by wrong ones or left out. */
export function mutated(base: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(base);
  const change = fc.tuple(fc.constantFrom(...paths), wrongValue);
  return fc
    .array(change, { minLength: 1, maxLength: 3 })
    .map((changes) => withoutRemoved(changes.reduce((v, [p, by]) => replaced(v, p, by), base)));
}
