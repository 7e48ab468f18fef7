/**
 * The bounds every reader holds a file to, so that a hostile document is refused in bounded time
 * and memory before anything walks it. YAML aliases are shared objects once loaded, and every
 * later walk (dropping nulls, the schemas, serialising) repeats them at each use: nine levels of
 * nine aliases is a kilobyte of text and 387 million nodes. JSON and YAML nest without limit in
 * the text, while the readers recurse. Keys that name an object's prototype are refused rather
 * than dropped, so that no reader has to be careful with them.
 *
 * The limits are generous for real `kubectl get -A -o yaml` dumps: a 50 MB dump of 20,000 pods
 * with their managedFields holds about 4 million nodes nested 14 deep, and uses no alias.
 */
import { type FieldPath, formatFieldPath } from './field-path.ts';
import { ManifestError } from './manifest-error.ts';

export interface DocumentBounds {
  readonly maxCharacters: number;
  readonly maxDepth: number;
  readonly maxNodes: number;
  readonly maxAliasedNodes: number;
}

export const DOCUMENT_BOUNDS: DocumentBounds = {
  /** Characters in one file. */
  maxCharacters: 128 * 1024 * 1024,
  /** Nesting, counting the document itself as 1 (js-yaml's own default). */
  maxDepth: 100,
  /** Nodes in one file (keys, values and items), an alias counted at every use. */
  maxNodes: 10_000_000,
  /** Nodes that aliases repeat, summed over a file's aliases. */
  maxAliasedNodes: 100_000,
};

export function tooDeep(bounds = DOCUMENT_BOUNDS): string {
  return `nested deeper than ${bounds.maxDepth} levels`;
}

const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** How many segments of a too-deep path an error shows. */
const SHOWN_SEGMENTS = 8;

/** What a file has used of its bounds so far; one per file, shared by its documents. */
export interface BoundsBudget {
  readonly bounds: DocumentBounds;
  nodes: number;
  aliasedNodes: number;
  /** The objects met so far, when the text may share them through aliases (else undefined). */
  readonly seen: Set<object> | undefined;
}

/** An anchor's or an alias's mark followed by a name, anywhere: text without both shares nothing. */
const ANCHOR = /&[^\s,[\]{}]/;
const ALIAS = /\*[^\s,[\]{}]/;

/** Whether a YAML text may share objects through aliases; a false alarm only costs time. */
export function mayShareObjects(yaml: string): boolean {
  return ANCHOR.test(yaml) && ALIAS.test(yaml);
}

/**
 * A budget for one file. Only YAML with an anchor can share objects, and remembering every
 * object costs a large dump more than the walk itself, so `mayShare` says whether to.
 */
export function newBoundsBudget(mayShare: boolean, bounds = DOCUMENT_BOUNDS): BoundsBudget {
  return { bounds, nodes: 0, aliasedNodes: 0, seen: mayShare ? new Set() : undefined };
}

/** Refuses a text over the size bound before it is parsed. */
export function checkSize(text: string, file: string): void {
  const max = DOCUMENT_BOUNDS.maxCharacters;
  if (text.length <= max) return;
  const detail = `is ${text.length} characters, over the limit of ${max} (128 MiB)`;
  throw new ManifestError(detail, { file });
}

/** What broke a bound, and where: the path is built as the walk unwinds. */
interface Breach {
  readonly detail: string;
  readonly path: (string | number)[];
}

/**
 * Walks a loaded document and throws ManifestError, its path relative to `root`, at the first
 * bound it breaks. `depth` is the nesting of `root` in its document. The walk recurses only
 * while within the depth bound, so it cannot run out of stack.
 */
export function checkBounds(root: unknown, budget: BoundsBudget, depth = 1): void {
  const breach = walk(root, depth, false, budget);
  if (breach === undefined) return;
  const field = breach.path;
  throw new ManifestError(breach.detail, { field, path: formatDeepPath(field) });
}

function walk(
  value: unknown,
  depth: number,
  repeated: boolean,
  budget: BoundsBudget,
): Breach | undefined {
  if (depth > budget.bounds.maxDepth) return { detail: tooDeep(budget.bounds), path: [] };
  if (typeof value !== 'object' || value === null) return count(budget, repeated);
  const shared = repeated || isRepeat(value, budget);
  const breach = count(budget, shared);
  if (breach !== undefined) return breach;
  return Array.isArray(value)
    ? walkItems(value, depth, shared, budget)
    : walkFields(value as Record<string, unknown>, depth, shared, budget);
}

function walkItems(
  items: unknown[],
  depth: number,
  repeated: boolean,
  budget: BoundsBudget,
): Breach | undefined {
  for (let index = 0; index < items.length; index++) {
    const breach = walk(items[index], depth + 1, repeated, budget);
    if (breach !== undefined) return within(index, breach);
  }
  return undefined;
}

function walkFields(
  fields: Record<string, unknown>,
  depth: number,
  repeated: boolean,
  budget: BoundsBudget,
): Breach | undefined {
  for (const key in fields) {
    if (PROTOTYPE_KEYS.has(key)) return { detail: prototypeKey(key), path: [key] };
    const breach = count(budget, repeated) ?? walk(fields[key], depth + 1, repeated, budget);
    if (breach !== undefined) return within(key, breach);
  }
  return undefined;
}

function within(segment: string | number, breach: Breach): Breach {
  breach.path.unshift(segment);
  return breach;
}

/** Whether an object was met before: a later use of a YAML alias. */
function isRepeat(value: object, budget: BoundsBudget): boolean {
  if (budget.seen === undefined) return false;
  if (budget.seen.has(value)) return true;
  budget.seen.add(value);
  return false;
}

/** Counts one node (a key, a value or an item). */
function count(budget: BoundsBudget, repeated: boolean): Breach | undefined {
  budget.nodes++;
  if (repeated) budget.aliasedNodes++;
  const { maxAliasedNodes, maxNodes } = budget.bounds;
  if (budget.aliasedNodes > maxAliasedNodes) {
    const detail = `aliases repeat more than ${maxAliasedNodes} nodes; write the values out, or use fewer aliases`;
    return { detail, path: [] };
  }
  if (budget.nodes > maxNodes) {
    return { detail: `holds more than ${maxNodes} nodes; split it into smaller files`, path: [] };
  }
  return undefined;
}

function prototypeKey(key: string): string {
  return `"${key}" is not allowed as a key: it names a JavaScript object's prototype`;
}

/** A too-deep field's path, shortened to where it starts: `metadata.labels.x[0][0][0][0]…`. */
export function formatDeepPath(path: FieldPath): string {
  const shown = formatFieldPath(path.slice(0, SHOWN_SEGMENTS));
  return path.length > SHOWN_SEGMENTS ? `${shown}…` : shown;
}
