/**
 * Words a YAML syntax error for people: the `yaml` package reads the failing document again with
 * positions and names the first problem with its line and column. Where it finds none (the two
 * readers disagree only on corner cases), or the document is too large to read again in bounded
 * time (the `yaml` package takes about a second per megabyte), js-yaml's own reason and
 * position are used.
 */
import type { YAMLException } from 'js-yaml';
import { parseAllDocuments, type YAMLError } from 'yaml';
import { ManifestError } from './manifest-error.ts';

const POSITION_SUFFIX = / at line \d+, column \d+:?$/;

/** The most text read again for a better message. */
const MAX_REREAD_CHARS = 1024 * 1024;

/** The document around the error, as far as `---` lines mark it, and the lines before it. */
interface Window {
  readonly text: string;
  readonly linesBefore: number;
}

function documentAround(text: string, position: number): Window | undefined {
  const before = text.lastIndexOf('\n---', position);
  const start = before < 0 ? 0 : before + 1;
  const after = text.indexOf('\n---', position);
  const end = after < 0 ? text.length : after;
  if (end - start > MAX_REREAD_CHARS) return undefined;
  let linesBefore = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < start; at = text.indexOf('\n', at + 1)) {
    linesBefore++;
  }
  return { text: text.slice(start, end), linesBefore };
}

export function yamlSyntaxError(text: string, file: string, cause: YAMLException): ManifestError {
  const window = documentAround(text, cause.mark?.position ?? text.length);
  const error =
    window === undefined
      ? undefined
      : parseAllDocuments(window.text)
          .flatMap((document) => ('errors' in document ? document.errors : []))
          .at(0);
  if (window !== undefined && error !== undefined) {
    return fromYaml(error, file, cause, window.linesBefore);
  }
  const mark = cause.mark;
  const column = mark === undefined ? '' : ` (column ${mark.column + 1})`;
  const where = { file, line: mark === undefined ? undefined : mark.line + 1 };
  return new ManifestError(`invalid YAML: ${cause.reason}${column}`, where, { cause });
}

function fromYaml(
  error: YAMLError,
  file: string,
  cause: YAMLException,
  linesBefore: number,
): ManifestError {
  const [first = error.message] = error.message.split('\n');
  const position = error.linePos?.[0];
  const column = position === undefined ? '' : ` (column ${position.col})`;
  const reason = first.replace(POSITION_SUFFIX, '');
  const detail = `invalid YAML: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}${column}`;
  const line = position === undefined ? undefined : position.line + linesBefore;
  return new ManifestError(detail, { file, line }, { cause });
}
