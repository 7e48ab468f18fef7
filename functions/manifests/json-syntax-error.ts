/**
 * Words a `JSON.parse` failure for people, at the line and column of its first fault
 * (json-fault.ts), in V8's words where it has them. This runs only for a file that failed.
 */
import { formatDeepPath, tooDeep } from './document-bounds.ts';
import { type FaultCode, firstJsonFault, type JsonFault } from './json-fault.ts';
import { ManifestError } from './manifest-error.ts';

const AFTER_PROPERTY = "expected ',' or '}' after property value";
const AFTER_ELEMENT = "expected ',' or ']' after array element";
const PROPERTY_NAME = 'expected double-quoted property name';
const COMMENT = 'comments are not allowed in JSON';

/** The words of the faults that need no look at where they lie. */
const REASONS: Partial<Record<FaultCode, string>> = {
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: PROPERTY_NAME,
  ColonExpected: "expected ':' after property name",
  CloseBraceExpected: AFTER_PROPERTY,
  CloseBracketExpected: AFTER_ELEMENT,
  EndOfFileExpected: 'unexpected non-whitespace character after JSON',
  InvalidCommentToken: COMMENT,
  UnexpectedEndOfComment: COMMENT,
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'bad Unicode escape',
  InvalidEscapeCharacter: 'bad escaped character',
  InvalidCharacter: 'bad control character in string literal',
};

export function jsonSyntaxError(text: string, file: string, cause: unknown): ManifestError {
  const fault = firstJsonFault(text);
  if (fault === undefined) {
    // Not expected: jsonc-parser accepts no strict JSON that V8 refuses. V8's words, unplaced.
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new ManifestError(`invalid JSON: ${reason}`, { file }, { cause });
  }
  // A text cut short is reported where its content stops, not on the empty line after it.
  const offset = Math.min(fault.offset, text.trimEnd().length);
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const where = { file, line: lineAt(text, lineStart) };
  const column = `(column ${offset - lineStart + 1})`;
  if (fault.code !== 'TooDeep') {
    return new ManifestError(`invalid JSON: ${reasonOf(fault)} ${column}`, where, { cause });
  }
  const place = { ...where, field: fault.path, path: formatDeepPath(fault.path) };
  return new ManifestError(`${tooDeep()} ${column}`, place, { cause });
}

function reasonOf(fault: JsonFault): string {
  const unexpected = `unexpected token '${fault.token}'`;
  switch (fault.code) {
    case 'InvalidSymbol':
      return fault.atKey ? PROPERTY_NAME : unexpected;
    case 'ValueExpected':
      return fault.token === '' ? 'unexpected end of JSON input' : unexpected;
    case 'CommaExpected':
      return fault.inArray ? AFTER_ELEMENT : AFTER_PROPERTY;
    default:
      return REASONS[fault.code] ?? 'not valid JSON';
  }
}

/** 1-based line of the character at `offset`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}
