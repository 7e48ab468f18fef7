/**
 * Reads `kubectl get -o json` output: one object or a list (`kind: List`, `PodList` …), and also
 * a top-level array of objects, which kubectl never writes but people do. JSON is YAML too, but
 * its flow collections leave the block reader's subset, and the general parser would take
 * seconds on a large dump where `JSON.parse` takes a fraction of one.
 *
 * Positions are left to json-layout.ts, which finds them only when an error asks for a line.
 * Duplicate keys, which YAML rejects, pass here with the last one winning, as `JSON.parse`
 * does; kubectl never writes them.
 */

import { Char } from './char-codes.ts';
import { JsonLayout } from './json-layout.ts';
import { contentStart } from './json-scan.ts';
import { jsonSyntaxError } from './json-syntax-error.ts';
import type { RawDocument, TextSpan } from './raw-document.ts';

/**
 * The documents of a text whose first character (after whitespace) is `{` or `[`, or undefined
 * for any other text. Such a text is JSON, as kubectl also decides by its first character;
 * when it is not valid JSON, throws ManifestError naming the file and line.
 */
export function readJsonDocuments(text: string, file: string): RawDocument[] | undefined {
  const first = text.charCodeAt(contentStart(text));
  if (first !== Char.leftBrace && first !== Char.leftBracket) return undefined;
  const value = parseJson(text, file);
  const layout = new JsonLayout(text);
  const roots: unknown[] = Array.isArray(value) ? value : [value];
  return roots.map((root, document) => ({
    value: root,
    span: layout.span(document),
    items: itemSpans(root, layout, document),
  }));
}

function parseJson(text: string, file: string): unknown {
  // A byte order mark, which some Windows editors write, is not JSON; jsonc-parser, which places
  // errors, counts it back in.
  const from = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  try {
    return JSON.parse(from === 0 ? text : text.slice(from));
  } catch (error) {
    throw jsonSyntaxError(text, file, error);
  }
}

function itemSpans(root: unknown, layout: JsonLayout, document: number): TextSpan[] {
  const items =
    typeof root === 'object' && root !== null && 'items' in root ? root.items : undefined;
  if (!Array.isArray(items)) return [];
  return items.map((_, item) => layout.span(document, item));
}
