/**
 * The line of a field inside a document, for error messages. Reading files records only where
 * each object starts; the object's own text is parsed again with positions only when an error
 * needs a field's line, so loading stays fast and errors still point at the offending field.
 */
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { FieldPath } from './field-path.ts';

const INDEX = /^\d+$/;
const QUOTES = /^["']|["']$/g;
const KEY_END = /[.[]/;
const LEFT_BRACE = 123;

/** An object's text in its file and the line it starts on (a ManifestDocument is one). */
export interface ObjectText {
  readonly line: number;
  readonly source: { readonly text: string; readonly start: number; readonly end: number };
}

interface Step {
  readonly node: unknown;
  /** Where the step's text starts: the key of a mapping entry, or the sequence item. */
  readonly offset: number;
}

/**
 * 1-based line of the field at `path` (segments, or text such as `spec.containers[0].image`);
 * for a field that is absent, the line of its nearest present ancestor.
 */
export function lineOf(document: ObjectText, path: FieldPath | string): number {
  const { text, start, end } = document.source;
  const column = indentation(text, start);
  const lineCounter = new LineCounter();
  const parsed = parseDocument(' '.repeat(column) + text.slice(start, end), { lineCounter });
  const root = parsed.contents;
  if (root === null) return document.line;
  const offset = typeof path === 'string' ? walkText(root, path) : walkSegments(root, path);
  return document.line + lineCounter.linePos(offset).line - 1;
}

/**
 * Indenting the first line as in the file keeps a block object's own indentation consistent. A
 * JSON object needs none, and on a minified line its column may run into the millions.
 */
function indentation(text: string, start: number): number {
  if (text.charCodeAt(start) === LEFT_BRACE) return 0;
  return start - (text.lastIndexOf('\n', start - 1) + 1);
}

function walkSegments(root: unknown, path: FieldPath): number {
  let step: Step | undefined = { node: root, offset: startOf(root) };
  let offset = step.offset;
  for (const segment of path) {
    step = childOf(step.node, segment);
    if (step === undefined) break;
    offset = step.offset;
  }
  return offset;
}

/** Text paths are split against the keys actually present, so keys holding dots still match. */
function walkText(root: unknown, path: string): number {
  let node = root;
  let offset = startOf(root);
  let rest = path;
  while (rest !== '') {
    const next = nextSegment(node, rest);
    const step = childOf(node, next.segment);
    if (step === undefined) break;
    ({ node, offset } = step);
    rest = next.rest;
  }
  return offset;
}

function nextSegment(node: unknown, path: string): { segment: string | number; rest: string } {
  if (path.startsWith('[')) {
    const close = path.indexOf(']');
    const inner = path.slice(1, close < 0 ? path.length : close);
    const segment = INDEX.test(inner) ? Number(inner) : inner.replace(QUOTES, '');
    return { segment, rest: trimDot(close < 0 ? '' : path.slice(close + 1)) };
  }
  const key = longestKeyPrefix(node, path) ?? path.split(KEY_END, 1)[0] ?? path;
  return { segment: key, rest: trimDot(path.slice(key.length)) };
}

function longestKeyPrefix(node: unknown, path: string): string | undefined {
  if (!isMap(node)) return undefined;
  let best: string | undefined;
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key === undefined || !path.startsWith(key)) continue;
    const after = path.charAt(key.length);
    if ((after === '' || after === '.' || after === '[') && key.length > (best?.length ?? -1)) {
      best = key;
    }
  }
  return best;
}

function trimDot(path: string): string {
  return path.startsWith('.') ? path.slice(1) : path;
}

function childOf(node: unknown, segment: string | number): Step | undefined {
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment];
    return isNode(item) ? { node: item, offset: startOf(item) } : undefined;
  }
  if (!isMap(node)) return undefined;
  const pair = node.items.find(
    (entry) => isScalar(entry.key) && String(entry.key.value) === String(segment),
  );
  return pair === undefined ? undefined : { node: pair.value, offset: startOf(pair.key) };
}

function startOf(node: unknown): number {
  return isNode(node) ? (node.range?.[0] ?? 0) : 0;
}
