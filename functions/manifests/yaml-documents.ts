/**
 * Reads YAML with js-yaml, as fast as kubectl's own dumps need (a 20,000-pod dump in about half a
 * second), under the core schema: timestamps and similar stay strings, as kubectl means them.
 * Positions are left to yaml-field-line.ts, which finds them only when an error asks for a line;
 * a syntax error is worded by the `yaml` package, which reads the text again with positions.
 */
import { loadAll, YAMLException } from 'js-yaml';
import type { RawDocument } from './raw-document.ts';
import { yamlFieldLine } from './yaml-field-line.ts';
import { YAML_LOAD_OPTIONS } from './yaml-load-options.ts';
import { isNestingError, yamlNestingError } from './yaml-nesting-error.ts';
import { yamlSyntaxError } from './yaml-syntax-error.ts';

/** Every document of the text, empty ones included (their value is null). */
export function readYamlDocuments(text: string, file: string): RawDocument[] {
  return load(text, file).map(
    (value, document): RawDocument => ({
      value,
      lineOf: (field) => yamlFieldLine(text, document, field),
    }),
  );
}

function load(text: string, file: string): unknown[] {
  try {
    return loadAll(text, undefined, YAML_LOAD_OPTIONS);
  } catch (error) {
    if (error instanceof YAMLException && isNestingError(error)) {
      throw yamlNestingError(text, file, error);
    }
    if (error instanceof YAMLException) throw yamlSyntaxError(text, file, error);
    throw error;
  }
}
