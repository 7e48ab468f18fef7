/**
 * Reads YAML with js-yaml, as fast as kubectl's own dumps need (a 20,000-pod dump in about half a
 * second), under the core schema: timestamps and similar stay strings, as kubectl means them.
 * Positions are left to yaml-layout.ts, which finds them only when an error asks for a line;
 * a syntax error is worded by the `yaml` package, which reads the text again with positions.
 */
import { CORE_SCHEMA, type LoadOptions, loadAll, YAMLException } from 'js-yaml';
import { DOCUMENT_BOUNDS } from './document-bounds.ts';
import type { RawDocument } from './raw-document.ts';
import { YamlLayout } from './yaml-layout.ts';
import { isNestingError, yamlNestingError } from './yaml-nesting-error.ts';
import { yamlSyntaxError } from './yaml-syntax-error.ts';

/** js-yaml 4.3 bounds nesting itself; its type definitions do not list the option yet. */
const OPTIONS = { schema: CORE_SCHEMA, maxDepth: DOCUMENT_BOUNDS.maxDepth } as LoadOptions;

/** Every document of the text, empty ones included (their value is null). */
export function readYamlDocuments(text: string, file: string): RawDocument[] {
  const values = load(text, file);
  const layout = new YamlLayout(text);
  return values.map((value, document) => ({
    value,
    span: layout.span(document),
    items: itemSpans(value, layout, document),
  }));
}

function load(text: string, file: string): unknown[] {
  try {
    return loadAll(text, undefined, OPTIONS);
  } catch (error) {
    if (error instanceof YAMLException && isNestingError(error)) {
      throw yamlNestingError(text, file, error);
    }
    if (error instanceof YAMLException) throw yamlSyntaxError(text, file, error);
    throw error;
  }
}

function itemSpans(value: unknown, layout: YamlLayout, document: number) {
  const items =
    typeof value === 'object' && value !== null && 'items' in value ? value.items : undefined;
  if (!Array.isArray(items)) return [];
  return items.map((_, item) => layout.span(document, item));
}
