/**
 * The line of a field in a JSON text, for error messages. Reading keeps the speed of
 * `JSON.parse`, which gives no positions, so an error has jsonc-parser read the text again:
 * its visitor reports each node with its line, and the visit stops at the field, or where the
 * field's nearest present ancestor ends.
 */
import { type JSONPath, visit } from 'jsonc-parser';
import { DOCUMENT_BOUNDS } from './document-bounds.ts';
import type { FieldPath } from './field-path.ts';

/** Thrown by the visitor to stop reading. */
const STOP = Symbol('stop');

/**
 * Beyond this nesting the visit stops, as jsonc-parser recurses. No error names a field deeper
 * than one past the nesting bound, and a root array adds a level.
 */
const MAX_DEPTH = DOCUMENT_BOUNDS.maxDepth + 2;

/**
 * 1-based line of the node at `path` from the text's root (an object property's key, an array's
 * element), or of its nearest present ancestor. Of duplicate keys the first counts.
 */
export function jsonFieldLine(text: string, path: FieldPath): number {
  let line = 0;
  /** How many segments of `path` have been found: the node they lead to is open. */
  let found = 0;
  /** Objects and arrays open around the current node; its path has as many segments. */
  let depth = 0;
  const reach = (segment: string | number | undefined, startLine: number): void => {
    if (depth === 0) line = startLine;
    else if (depth !== found + 1 || segment !== path[found]) return;
    else {
      found++;
      line = startLine;
    }
    if (found === path.length) throw STOP;
  };
  const element = (pathOf: () => JSONPath) => (depth === found + 1 ? pathOf().at(-1) : undefined);
  const open = (startLine: number, pathOf: () => JSONPath): void => {
    // A property's value was reached at its key; only elements and the root are reached here.
    reach(element(pathOf), startLine);
    if (++depth > MAX_DEPTH) throw STOP;
  };
  // Past the end of the deepest node found, the rest of the path is absent.
  const close = (): void => {
    if (--depth <= found) throw STOP;
  };
  try {
    visit(text, {
      onObjectBegin: (_offset, _length, startLine, _column, pathOf) => open(startLine, pathOf),
      onArrayBegin: (_offset, _length, startLine, _column, pathOf) => open(startLine, pathOf),
      onObjectProperty: (name, _offset, _length, startLine) => reach(name, startLine),
      onLiteralValue: (_value, _offset, _length, startLine, _column, pathOf) =>
        reach(element(pathOf), startLine),
      onObjectEnd: close,
      onArrayEnd: close,
    });
  } catch (error) {
    if (error !== STOP) throw error;
  }
  return line + 1;
}
