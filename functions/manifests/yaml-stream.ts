/**
 * Reads YAML with the `yaml` package: every construct of the language, with line numbers from
 * node ranges. It is the reference the fast block reader falls back to, and the one that words
 * syntax errors.
 */
import {
  type Document,
  isMap,
  isSeq,
  LineCounter,
  type ParsedNode,
  parseAllDocuments,
  type YAMLError,
} from 'yaml';
import { ManifestError } from './manifest-error.ts';
import type { RawDocument, TextSpan } from './raw-document.ts';

const POSITION_SUFFIX = / at line \d+, column \d+:?$/;

export function readYamlStream(text: string, file: string): RawDocument[] {
  const lineCounter = new LineCounter();
  const documents: RawDocument[] = [];
  for (const document of parseAllDocuments(text, { lineCounter })) {
    const error = document.errors[0];
    if (error !== undefined) throw syntaxError(error, file);
    const root = document.contents;
    if (root === null) continue;
    const span = spanOf(root, lineCounter);
    documents.push({
      value: toValue(document, file, span.line),
      span,
      items: itemSpans(root, lineCounter),
    });
  }
  return documents;
}

function syntaxError(error: YAMLError, file: string): ManifestError {
  const [first = error.message] = error.message.split('\n');
  const position = error.linePos?.[0];
  const column = position === undefined ? '' : ` (column ${position.col})`;
  const reason = first.replace(POSITION_SUFFIX, '');
  const detail = `invalid YAML: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}${column}`;
  return new ManifestError(detail, { file, line: position?.line }, { cause: error });
}

function toValue(document: Document.Parsed, file: string, line: number): unknown {
  try {
    return document.toJS();
  } catch (error) {
    // Alias expansion beyond the package's limit, for one.
    const detail = error instanceof Error ? error.message : String(error);
    throw new ManifestError(`invalid YAML: ${detail}`, { file, line }, { cause: error });
  }
}

function spanOf(node: ParsedNode, lineCounter: LineCounter): TextSpan {
  const [start, , end] = node.range;
  return { start, end, line: lineCounter.linePos(start).line };
}

function itemSpans(root: ParsedNode, lineCounter: LineCounter): TextSpan[] {
  if (!isMap(root)) return [];
  const items = root.get('items', true);
  if (!isSeq(items)) return [];
  return items.items.map((item) => spanOf(item as ParsedNode, lineCounter));
}
