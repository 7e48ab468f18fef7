/**
 * Where the values of a JSON text lie: each document (the root, or each element of a root array)
 * and each entry of a document's `items` list. The text has already been accepted by
 * `JSON.parse`, so the scan only follows strings and brackets; it runs only when an error needs
 * a line, which keeps reading a large `kubectl get -o json` dump at the speed of `JSON.parse`.
 */
import { Char } from './char-codes.ts';
import type { Bounds } from './lazy-span.ts';

export interface DocumentBounds extends Bounds {
  readonly items: readonly Bounds[];
}

const BYTE_ORDER_MARK = 0xfeff;
const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const COMMA = 44;
/** The characters of numbers, `true`, `false` and `null`. */
const SCALAR = /[-+.0-9A-Za-z]*/y;

/** Offset of the first character after a leading byte order mark and JSON whitespace. */
export function contentStart(text: string): number {
  return skipSpace(text, text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0);
}

/** 1-based line of the character at `offset`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

export function documentBounds(text: string): DocumentBounds[] {
  const root = contentStart(text);
  const documents =
    text.charCodeAt(root) === Char.leftBracket
      ? elementBounds(text, root)
      : [{ start: root, end: valueEnd(text, root) }];
  return documents.map((bounds) => ({ ...bounds, items: itemBounds(text, bounds.start) }));
}

function itemBounds(text: string, at: number): Bounds[] {
  if (text.charCodeAt(at) !== Char.leftBrace) return [];
  const items = memberValue(text, at, 'items');
  return items >= 0 && text.charCodeAt(items) === Char.leftBracket
    ? elementBounds(text, items)
    : [];
}

/** Bounds of the elements of the array whose `[` is at `at`. */
function elementBounds(text: string, at: number): Bounds[] {
  const elements: Bounds[] = [];
  let index = skipSpace(text, at + 1);
  while (index < text.length && text.charCodeAt(index) !== Char.rightBracket) {
    const end = valueEnd(text, index);
    elements.push({ start: index, end });
    index = skipSeparator(text, end);
  }
  return elements;
}

/**
 * Offset of the value of the member `key` of the object whose `{` is at `at`, or -1. Of duplicate
 * keys the last counts, as in `JSON.parse`.
 */
function memberValue(text: string, at: number, key: string): number {
  let found = -1;
  let index = skipSpace(text, at + 1);
  while (index < text.length && text.charCodeAt(index) === Char.doubleQuote) {
    const keyEnd = stringEnd(text, index);
    const value = skipSpace(text, skipSpace(text, keyEnd) + 1);
    // Parsing the key decodes any escapes in it.
    if (JSON.parse(text.slice(index, keyEnd)) === key) found = value;
    index = skipSeparator(text, valueEnd(text, value));
  }
  return found;
}

function valueEnd(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code === Char.doubleQuote) return stringEnd(text, at);
  if (code === Char.leftBrace || code === Char.leftBracket) return collectionEnd(text, at);
  SCALAR.lastIndex = at;
  SCALAR.test(text);
  return Math.max(SCALAR.lastIndex, at + 1);
}

function collectionEnd(text: string, at: number): number {
  let depth = 0;
  for (let index = at; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === Char.doubleQuote) {
      index = stringEnd(text, index) - 1;
    } else if (code === Char.leftBrace || code === Char.leftBracket) {
      depth++;
    } else if ((code === Char.rightBrace || code === Char.rightBracket) && --depth === 0) {
      return index + 1;
    }
  }
  return text.length;
}

/**
 * Offset of the first bracket that opens a value nested `levels` deep below `start` (the value at
 * `start` is level 1), or `end` when none does; strings are skipped.
 */
export function openingAtLevel(text: string, start: number, end: number, levels: number): number {
  let level = 0;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code === Char.doubleQuote) index = stringEnd(text, index) - 1;
    else if (code === Char.leftBracket || code === Char.leftBrace) {
      if (++level === levels) return index;
    } else if (code === Char.rightBracket || code === Char.rightBrace) level--;
  }
  return end;
}

/** Offset just past the closing quote of the string whose opening quote is at `at`. */
function stringEnd(text: string, at: number): number {
  let close = text.indexOf('"', at + 1);
  while (close > 0 && isEscaped(text, close)) close = text.indexOf('"', close + 1);
  return close < 0 ? text.length : close + 1;
}

/** Whether an odd number of backslashes precedes `at`. */
function isEscaped(text: string, at: number): boolean {
  let index = at - 1;
  while (text.charCodeAt(index) === Char.backslash) index--;
  return (at - 1 - index) % 2 === 1;
}

/** Past whitespace, a `,` if any, and whitespace again. */
function skipSeparator(text: string, at: number): number {
  const index = skipSpace(text, at);
  return text.charCodeAt(index) === COMMA ? skipSpace(text, index + 1) : index;
}

function skipSpace(text: string, at: number): number {
  let index = at;
  for (;;) {
    const code = text.charCodeAt(index);
    const space =
      code === Char.space || code === NEWLINE || code === CARRIAGE_RETURN || code === Char.tab;
    if (!space) return index;
    index++;
  }
}
