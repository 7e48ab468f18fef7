/**
 * Words a YAML syntax error for people: the `yaml` package reads the text again with positions
 * and names the first problem with its line and column. Where it finds none (the two readers
 * disagree only on corner cases), js-yaml's own reason and position are used.
 */
import type { YAMLException } from 'js-yaml';
import { parseAllDocuments, type YAMLError } from 'yaml';
import { ManifestError } from './manifest-error.ts';

const POSITION_SUFFIX = / at line \d+, column \d+:?$/;

export function yamlSyntaxError(text: string, file: string, cause: YAMLException): ManifestError {
  const error = parseAllDocuments(text)
    .flatMap((document) => ('errors' in document ? document.errors : []))
    .at(0);
  if (error !== undefined) return fromYaml(error, file, cause);
  const mark = cause.mark;
  const column = mark === undefined ? '' : ` (column ${mark.column + 1})`;
  const where = { file, line: mark === undefined ? undefined : mark.line + 1 };
  return new ManifestError(`invalid YAML: ${cause.reason}${column}`, where, { cause });
}

function fromYaml(error: YAMLError, file: string, cause: YAMLException): ManifestError {
  const [first = error.message] = error.message.split('\n');
  const position = error.linePos?.[0];
  const column = position === undefined ? '' : ` (column ${position.col})`;
  const reason = first.replace(POSITION_SUFFIX, '');
  const detail = `invalid YAML: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}${column}`;
  return new ManifestError(detail, { file, line: position?.line }, { cause });
}
