/**
 * Reads `kubectl get -o json` output: one object or a list (`kind: List`, `PodList` …), and also
 * a top-level array of objects, which kubectl never writes but people do. JSON is YAML too, but
 * its flow collections leave the block reader's subset, and the general parser would take
 * seconds on a large dump where `JSON.parse` takes a fraction of one.
 *
 * `JSON.parse` gives no positions; json-field-line.ts finds a line only when an error asks.
 * Duplicate keys, which YAML rejects, pass here with the last one winning, as `JSON.parse`
 * does; kubectl never writes them.
 */
import { jsonFieldLine } from './json-field-line.ts';
import { jsonSyntaxError } from './json-syntax-error.ts';
import type { RawDocument } from './raw-document.ts';

/** A byte order mark (which some Windows editors write), JSON whitespace, then `{` or `[`. */
const JSON_START = /^\ufeff?[ \t\n\r]*[[{]/;

/**
 * The documents of a text whose first character (after whitespace) is `{` or `[`, or undefined
 * for any other text. Such a text is JSON, as kubectl also decides by its first character;
 * when it is not valid JSON, throws ManifestError naming the file and line.
 */
export function readJsonDocuments(text: string, file: string): RawDocument[] | undefined {
  if (!JSON_START.test(text)) return undefined;
  const value = parseJson(text, file);
  if (!Array.isArray(value)) {
    return [{ value, lineOf: (field) => jsonFieldLine(text, field) }];
  }
  return value.map(
    (element, index): RawDocument => ({
      value: element,
      lineOf: (field) => jsonFieldLine(text, [index, ...field]),
    }),
  );
}

function parseJson(text: string, file: string): unknown {
  // The byte order mark is not JSON; jsonc-parser, which places errors, counts it back in.
  const bom = text.charCodeAt(0) === 0xfeff;
  try {
    return JSON.parse(bom ? text.slice(1) : text);
  } catch (error) {
    throw jsonSyntaxError(text, file, error);
  }
}
