/**
 * Words js-yaml's refusal of a document nested beyond DOCUMENT_BOUNDS.maxDepth: the line from
 * js-yaml, and the field from the text it had read when it stopped. That text nests no deeper
 * than the bound, so the `yaml` package reads it without running out of stack, and the field is
 * the last entry at every level of it.
 */
import type { YAMLException } from 'js-yaml';
import { isMap, isScalar, isSeq, parseAllDocuments } from 'yaml';
import { DOCUMENT_BOUNDS, formatDeepPath, tooDeep } from './document-bounds.ts';
import type { FieldPath } from './field-path.ts';
import { ManifestError } from './manifest-error.ts';

/** Reading more than this before the refusal to name its field would take longer than it is worth. */
const MAX_PREFIX = 1024 * 1024;

export function isNestingError(error: YAMLException): boolean {
  return error.reason.startsWith('nesting exceeded maxDepth');
}

export function yamlNestingError(text: string, file: string, cause: YAMLException): ManifestError {
  const { line, column, position } = cause.mark;
  const field = pathBefore(text, position);
  const where = { file, line: line + 1, field, path: formatDeepPath(field) };
  return new ManifestError(`${tooDeep()} (column ${column + 1})`, where, { cause });
}

function pathBefore(text: string, position: number): FieldPath {
  const marker = text.lastIndexOf('\n---', position);
  const start = marker < 0 ? 0 : marker + 1;
  if (position - start > MAX_PREFIX) return [];
  const documents = parseAllDocuments(text.slice(start, position));
  const document = Array.isArray(documents) ? documents.at(-1) : undefined;
  const path: (string | number)[] = [];
  let node: unknown = document?.contents;
  while (path.length <= DOCUMENT_BOUNDS.maxDepth) {
    if (isMap(node) && node.items.length > 0) {
      const pair = node.items[node.items.length - 1];
      path.push(isScalar(pair?.key) ? String(pair.key.value) : '?');
      node = pair?.value;
    } else if (isSeq(node) && node.items.length > 0) {
      path.push(node.items.length - 1);
      node = node.items[node.items.length - 1];
    } else break;
  }
  return path;
}
