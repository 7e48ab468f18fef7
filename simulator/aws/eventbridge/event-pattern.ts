/**
 * EventBridge's event-pattern language (EventBridge user guide, "Event patterns", "Content
 * filtering"; aws/event-ruler): a pattern has the event's nesting, each leaf of it is a list of
 * matchers of which one must match, and every field named must match. An event's array matches
 * when any element does. Matchers: exact values (strings, numbers, booleans, null), `prefix`,
 * `suffix`, `equals-ignore-case`, `wildcard`, `anything-but` (of a value, a list, a prefix, a
 * suffix, a wildcard or ignoring case), `numeric` ranges, `cidr` for IPv4, `exists`; `$or` takes
 * a list of patterns of which one must match. Like event-ruler, the event is read as its leaves:
 * `exists` asks whether the path holds any value that is not an object.
 */
export type EventPattern = { readonly [field: string]: unknown };

type Leaf = string | number | boolean | null;

/** A pattern EventBridge would refuse: PutRule answers InvalidEventPatternException. */
export class InvalidEventPatternError extends Error {}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The leaf values at a path; arrays anywhere on the way are searched element by element. */
function leavesAt(value: unknown, path: readonly string[]): Leaf[] {
  if (Array.isArray(value)) return value.flatMap((element) => leavesAt(element, path));
  const [field, ...rest] = path;
  if (field === undefined) return isObject(value) || value === undefined ? [] : [value as Leaf];
  return isObject(value) ? leavesAt(value[field], rest) : [];
}

function wildcardRegExp(pattern: string, flags = ''): RegExp {
  const parts = pattern
    .split(/(?<!\\)\*/)
    .map((part) => part.replace(/\\\*/g, '*').replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`, flags);
}

/** A `prefix` or `suffix` value: a string, or `{ "equals-ignore-case": string }`. */
function affix(spec: unknown): { text: string; ignoreCase: boolean } {
  if (typeof spec === 'string') return { text: spec, ignoreCase: false };
  if (isObject(spec) && typeof spec['equals-ignore-case'] === 'string') {
    return { text: spec['equals-ignore-case'], ignoreCase: true };
  }
  throw new InvalidEventPatternError(`prefix and suffix take a string: ${JSON.stringify(spec)}`);
}

function hasPrefix(leaf: Leaf, spec: unknown): boolean {
  const { text, ignoreCase } = affix(spec);
  if (typeof leaf !== 'string') return false;
  return ignoreCase ? leaf.toLowerCase().startsWith(text.toLowerCase()) : leaf.startsWith(text);
}

function hasSuffix(leaf: Leaf, spec: unknown): boolean {
  const { text, ignoreCase } = affix(spec);
  if (typeof leaf !== 'string') return false;
  return ignoreCase ? leaf.toLowerCase().endsWith(text.toLowerCase()) : leaf.endsWith(text);
}

function equalsIgnoringCase(leaf: Leaf, spec: unknown): boolean {
  return (
    typeof leaf === 'string' &&
    typeof spec === 'string' &&
    leaf.toLowerCase() === spec.toLowerCase()
  );
}

function matchesWildcard(leaf: Leaf, spec: unknown): boolean {
  return typeof leaf === 'string' && typeof spec === 'string' && wildcardRegExp(spec).test(leaf);
}

const COMPARISONS: Readonly<Record<string, (a: number, b: number) => boolean>> = {
  '=': (a, b) => a === b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};

/** `numeric: [">", 0, "<=", 5]`: operator and value pairs, every one of them checked. */
function numericComparisons(spec: unknown): [(a: number, b: number) => boolean, number][] {
  if (!Array.isArray(spec) || spec.length % 2 !== 0 || spec.length === 0) {
    throw new InvalidEventPatternError(
      `numeric takes operator and value pairs: ${JSON.stringify(spec)}`,
    );
  }
  const pairs: [(a: number, b: number) => boolean, number][] = [];
  for (let i = 0; i < spec.length; i += 2) {
    const compare = COMPARISONS[String(spec[i])];
    const value: unknown = spec[i + 1];
    if (compare === undefined || typeof value !== 'number') {
      throw new InvalidEventPatternError(`numeric: unknown comparison ${JSON.stringify(spec)}`);
    }
    pairs.push([compare, value]);
  }
  return pairs;
}

/** Every comparison must hold, and only numbers are compared. */
function inNumericRange(leaf: Leaf, spec: unknown): boolean {
  const comparisons = numericComparisons(spec);
  return typeof leaf === 'number' && comparisons.every(([compare, value]) => compare(leaf, value));
}

function ipv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) < 256))
    return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

function inCidr(leaf: Leaf, spec: unknown): boolean {
  const [network = '', bits = ''] = String(spec).split('/');
  const base = ipv4(network);
  const size = Number(bits);
  if (base === undefined || !Number.isInteger(size) || size < 0 || size > 32) {
    throw new InvalidEventPatternError(`cidr takes an IPv4 block: ${JSON.stringify(spec)}`);
  }
  const address = typeof leaf === 'string' ? ipv4(leaf) : undefined;
  if (address === undefined) return false;
  const block = 2 ** (32 - size);
  return Math.floor(address / block) === Math.floor(base / block);
}

/** `anything-but`: a value, a list of values, or a prefix, suffix, wildcard or case-blind value. */
function anythingBut(leaf: Leaf, spec: unknown): boolean {
  if (Array.isArray(spec))
    return (typeof leaf === 'string' || typeof leaf === 'number') && !spec.includes(leaf);
  if (!isObject(spec))
    return (typeof leaf === 'string' || typeof leaf === 'number') && leaf !== spec;
  const [[operator, value] = ['', undefined]] = Object.entries(spec);
  const values = Array.isArray(value) ? value : [value];
  if (typeof leaf !== 'string') return false;
  switch (operator) {
    case 'prefix':
      return !hasPrefix(leaf, value);
    case 'suffix':
      return !hasSuffix(leaf, value);
    case 'equals-ignore-case':
      return !values.some((v) => equalsIgnoringCase(leaf, v));
    case 'wildcard':
      return !values.some((v) => matchesWildcard(leaf, v));
    default:
      throw new InvalidEventPatternError(`anything-but: unknown ${operator}`);
  }
}

const OPERATORS: Readonly<Record<string, (leaf: Leaf, spec: unknown) => boolean>> = {
  prefix: hasPrefix,
  suffix: hasSuffix,
  'equals-ignore-case': equalsIgnoringCase,
  wildcard: matchesWildcard,
  numeric: inNumericRange,
  cidr: inCidr,
  'anything-but': anythingBut,
};

/** Whether one matcher of a pattern's list accepts the field's leaves. */
function matcherAccepts(matcher: unknown, leaves: readonly Leaf[]): boolean {
  if (!isObject(matcher)) return leaves.some((leaf) => leaf === matcher);
  const entries = Object.entries(matcher);
  const [[operator, spec] = ['', undefined]] = entries;
  if (entries.length !== 1)
    throw new InvalidEventPatternError(`one operator a matcher: ${JSON.stringify(matcher)}`);
  if (operator === 'exists') return spec === true ? leaves.length > 0 : leaves.length === 0;
  const accepts = OPERATORS[operator];
  if (accepts === undefined) throw new InvalidEventPatternError(`unknown operator ${operator}`);
  return leaves.some((leaf) => accepts(leaf, spec));
}

function matchesAt(pattern: EventPattern, event: unknown, path: readonly string[]): boolean {
  return Object.entries(pattern).every(([field, value]) => {
    if (field === '$or') {
      if (!Array.isArray(value)) throw new InvalidEventPatternError('$or takes a list of patterns');
      return value.some((alternative) => matchesAt(alternative as EventPattern, event, path));
    }
    if (Array.isArray(value)) {
      const leaves = leavesAt(event, [...path, field]);
      return value.some((matcher) => matcherAccepts(matcher, leaves));
    }
    if (isObject(value)) return matchesAt(value, event, [...path, field]);
    throw new InvalidEventPatternError(
      `${[...path, field].join('.')}: expected a list or an object`,
    );
  });
}

/** Operators whose value is one string. */
const STRING_VALUED = new Set(['equals-ignore-case', 'wildcard', 'cidr']);

function validateMatcher(matcher: unknown): void {
  if (!isObject(matcher)) return;
  const entries = Object.entries(matcher);
  const [[operator, spec] = ['', undefined]] = entries;
  if (entries.length !== 1) {
    throw new InvalidEventPatternError(`one operator a matcher: ${JSON.stringify(matcher)}`);
  }
  if (operator === 'exists') {
    if (typeof spec !== 'boolean') throw new InvalidEventPatternError('exists takes true or false');
    return;
  }
  const accepts = OPERATORS[operator];
  if (accepts === undefined) throw new InvalidEventPatternError(`unknown operator ${operator}`);
  if (STRING_VALUED.has(operator) && typeof spec !== 'string') {
    throw new InvalidEventPatternError(`${operator} takes a string`);
  }
  // Each operator checks its value as it reads it; a probe makes it read.
  accepts('0.0.0.0', spec);
}

/**
 * Throws InvalidEventPatternError where PutRule would refuse the pattern: a field that is neither
 * a list nor an object, an `$or` that is not a list of patterns, an operator unknown or
 * malformed. Matching skips what it need not read, so rules are checked when put.
 */
export function validateEventPattern(pattern: EventPattern): void {
  for (const [field, value] of Object.entries(pattern)) validateField(field, value);
}

function validateField(field: string, value: unknown): void {
  if (field === '$or') {
    if (!Array.isArray(value) || !value.every(isObject)) {
      throw new InvalidEventPatternError('$or takes a list of patterns');
    }
    for (const alternative of value) validateEventPattern(alternative);
  } else if (Array.isArray(value)) {
    for (const matcher of value) validateMatcher(matcher);
  } else if (isObject(value)) {
    validateEventPattern(value);
  } else {
    throw new InvalidEventPatternError(`${field}: expected a list or an object`);
  }
}

/** Whether the event matches the pattern. Throws InvalidEventPatternError on a malformed pattern. */
export function matchesEventPattern(pattern: EventPattern, event: unknown): boolean {
  return matchesAt(pattern, event, []);
}
