/**
 * Turns a `JSON.parse` failure into a ManifestError naming the file and line. Most of V8's
 * messages give the offset of the fault; those that do not ("Unexpected token ']', …") are
 * located by checking the text again, which only happens for a file that failed anyway.
 */

import { Char } from './char-codes.ts';
import { lineAt } from './json-scan.ts';
import { ManifestError } from './manifest-error.ts';

const POSITION = / in JSON at position (\d+)/;
/** V8's offset and, in newer versions, line and column, which are computed here instead. */
const POSITION_SUFFIX = / in JSON at position \d+.*$/s;
/** A word such as `tru` or `undefined`, or any other single character but whitespace. */
const TOKEN = /[-+.\w]+|\S/y;

const SPACE = /[ \t\n\r]*/y;
/**
 * Any character but `"`, `\` and control characters, or an escape; one per repetition, since
 * runs (`[…]+` inside `*`) would backtrack exponentially on a string left open.
 */
const STRING = /"(?:[ !#-[\]-\uffff]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const SCALAR = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null/y;
const COMMA = 44;

/** `error` came from `JSON.parse(text.slice(from))`. */
export function jsonSyntaxError(
  error: unknown,
  text: string,
  from: number,
  file: string,
): ManifestError {
  const message = error instanceof Error ? error.message : String(error);
  const position = POSITION.exec(message)?.[1];
  const fault =
    position === undefined
      ? locateFault(text, from)
      : { offset: from + Number(position), reason: message.replace(POSITION_SUFFIX, '') };
  // A text cut short is reported where its content stops, not on the empty line after it.
  const offset = Math.min(fault.offset, text.trimEnd().length);
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const reason = `${fault.reason.charAt(0).toLowerCase()}${fault.reason.slice(1)}`;
  const detail = `invalid JSON: ${reason} (column ${offset - lineStart + 1})`;
  return new ManifestError(detail, { file, line: lineAt(text, lineStart) }, { cause: error });
}

/**
 * For V8's messages without an offset: the offset, and the token found there, which V8 names
 * differently (`'\n'` after `tru`, where the check stops at `tru` itself).
 */
function locateFault(text: string, from: number): { offset: number; reason: string } {
  const checker = new JsonChecker(text, from);
  const offset = checker.errorOffset();
  // V8's own words when it gives an offset; objects written one after another are a likely slip.
  const trailing = 'unexpected non-whitespace character after JSON';
  if (checker.pastValue) return { offset, reason: trailing };
  TOKEN.lastIndex = offset;
  const token = TOKEN.exec(text)?.[0];
  const reason =
    token === undefined ? 'unexpected end of JSON input' : `unexpected token '${token}'`;
  return { offset, reason };
}

/** Where a step of the check leaves it: after a complete value, before a value, at the end of the text, or at the fault. */
type Step = 'done' | 'opened' | 'end' | 'fail';

/** Reads the text as JSON only to find the first character that cannot continue it. */
export class JsonChecker {
  private readonly text: string;
  private at: number;
  /** The closing brackets of the collections open at `at`, innermost last. */
  private readonly closers: number[] = [];
  /** Whether the fault follows a complete JSON text. */
  pastValue = false;

  constructor(text: string, from: number) {
    this.text = text;
    this.at = from;
  }

  /** Offset of the fault: the text's length when it ends too early. */
  errorOffset(): number {
    for (;;) {
      const read = this.value();
      if (read === 'fail') return this.at;
      // 'end' cannot follow from a text JSON.parse rejected; were it to, the end is the best guess.
      if (read === 'done' && this.afterValue() !== 'opened') return this.at;
    }
  }

  private value(): Step {
    this.match(SPACE);
    const code = this.text.charCodeAt(this.at);
    if (code === Char.leftBrace || code === Char.leftBracket) return this.open(code);
    return this.match(code === Char.doubleQuote ? STRING : SCALAR) ? 'done' : 'fail';
  }

  private open(code: number): Step {
    const closer = code === Char.leftBrace ? Char.rightBrace : Char.rightBracket;
    this.at++;
    this.match(SPACE);
    if (this.text.charCodeAt(this.at) === closer) {
      this.at++;
      return 'done';
    }
    this.closers.push(closer);
    return closer === Char.rightBracket || this.key() ? 'opened' : 'fail';
  }

  /** After a complete value: close collections, or pass a `,` (and the next key) to the next value. */
  private afterValue(): Step {
    for (;;) {
      this.match(SPACE);
      const closer = this.closers.at(-1);
      if (closer === undefined) {
        this.pastValue = this.at < this.text.length;
        return this.pastValue ? 'fail' : 'end';
      }
      const code = this.text.charCodeAt(this.at);
      if (code === closer) {
        this.closers.pop();
        this.at++;
      } else if (code !== COMMA) {
        return 'fail';
      } else {
        this.at++;
        return closer === Char.rightBracket || this.key() ? 'opened' : 'fail';
      }
    }
  }

  private key(): boolean {
    this.match(SPACE);
    if (!this.match(STRING)) return false;
    this.match(SPACE);
    if (this.text.charCodeAt(this.at) !== Char.colon) return false;
    this.at++;
    return true;
  }

  private match(pattern: RegExp): boolean {
    pattern.lastIndex = this.at;
    if (!pattern.test(this.text)) return false;
    this.at = pattern.lastIndex;
    return true;
  }
}
