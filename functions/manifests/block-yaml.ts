/**
 * A fast reader for the block-style YAML that `kubectl get -o yaml` writes and most hand-written
 * manifests use: block mappings and sequences, plain and quoted scalars (also folded over several
 * lines), literal block scalars, `{}` and `[]`, comments and `---` separators.
 *
 * The general parser reads a few megabytes a second, so a 20,000-pod dump would take many
 * seconds. This reader is an optimisation, never a dialect: on anything outside the subset
 * (anchors, tags, flow collections, folded block scalars, tabs, duplicate keys, syntax errors …)
 * it returns `undefined` and the caller parses the text with the `yaml` package instead. Within
 * the subset its values equal the `yaml` package's (core schema), which a property test checks.
 */
import { resolvePlain } from './core-schema.ts';
import { Char, OUTSIDE, OutsideSubset } from './line-cursor.ts';
import { closingQuote, trimSpaces, unquote } from './quoted-scalar.ts';
import type { RawDocument, TextSpan } from './raw-document.ts';
import { INDICATORS, ScalarReader } from './scalar-reader.ts';

/** Anything but printable text, `\n` and tab: control characters, `\r`, BOM, NEL, LS and PS. */
const UNUSUAL_CHARACTER = /[^\n\t -~\u00a0-\u2027\u202a-\ufefe\uff00-\uffff]/;

/** Reads every non-empty document of the text, or returns undefined when the text leaves the subset. */
export function readBlockYaml(text: string): RawDocument[] | undefined {
  if (UNUSUAL_CHARACTER.test(text)) return undefined;
  try {
    return new BlockReader(text).readStream();
  } catch (error) {
    if (error instanceof OutsideSubset) return undefined;
    throw error;
  }
}

function setEntry(map: Record<string, unknown>, key: string, value: unknown): void {
  // Values are never undefined here, so one lookup tells a new key from a taken or inherited one.
  if (map[key] === undefined) {
    map[key] = value;
    return;
  }
  // Duplicate keys are an error the general parser reports with its own message.
  if (Object.hasOwn(map, key)) throw OUTSIDE;
  // Keys such as `constructor` or `__proto__` become own properties, as the `yaml` package makes them.
  Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
}

class BlockReader extends ScalarReader {
  /** The key found by the last successful `scanKey`. */
  private key = '';

  readStream(): RawDocument[] {
    const documents: RawDocument[] = [];
    for (;;) {
      this.skipIgnorable();
      if (this.done) return documents;
      if (this.atBoundary()) this.advance();
      else documents.push(this.readDocument());
    }
  }

  private readDocument(): RawDocument {
    const start = this.start + this.indent;
    const line = this.line;
    const items: TextSpan[] = [];
    // Only mappings are Kubernetes objects; other roots go to the general parser, which reports them.
    const after = this.isSequenceEntry(start) ? -1 : this.scanKey(start);
    if (after < 0) throw OUTSIDE;
    const value = this.readMapping(this.indent, after, items);
    const end = Math.min(this.start, this.text.length);
    if (!this.atBoundary()) throw OUTSIDE;
    return { value, span: { start, end, line }, items };
  }

  /** A node starting at `at` on the current line, inside a block indented by `parent`. */
  private readNode(at: number, parent: number, spans?: TextSpan[]): unknown {
    if (this.isSequenceEntry(at)) return this.readSequence(at - this.start, spans);
    const after = this.scanKey(at);
    if (after >= 0) return this.readMapping(at - this.start, after);
    return this.readInlineValue(at, parent);
  }

  /** A block mapping whose first key, already scanned, ends at `firstAfter`. */
  private readMapping(
    column: number,
    firstAfter: number,
    items?: TextSpan[],
  ): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    let after = firstAfter;
    for (;;) {
      const key = this.key;
      setEntry(map, key, this.readValue(after, column, key === 'items' ? items : undefined));
      this.skipIgnorable();
      if (this.atBoundary() || this.indent < column) return map;
      if (this.indent > column || this.isSequenceEntry(this.start + column)) throw OUTSIDE;
      after = this.scanKey(this.start + column);
      if (after < 0) throw OUTSIDE;
    }
  }

  /** The value after a key's `:`; a value on later lines may be a sequence at the key's own indentation. */
  private readValue(after: number, column: number, spans?: TextSpan[]): unknown {
    const at = this.skipSpaces(after);
    if (at < this.end && this.text.charCodeAt(at) !== Char.hash) {
      return this.readInlineValue(at, column);
    }
    this.advance();
    this.skipIgnorable();
    if (this.atBoundary()) return null;
    if (this.indent > column) return this.readNode(this.start + this.indent, column, spans);
    if (this.indent === column && this.isSequenceEntry(this.start + column)) {
      return this.readSequence(column, spans);
    }
    return null;
  }

  private readSequence(column: number, spans?: TextSpan[]): unknown[] {
    const list: unknown[] = [];
    for (;;) {
      list.push(this.readEntry(this.skipSpaces(this.start + column + 1), column, spans));
      this.skipIgnorable();
      if (this.atBoundary() || this.indent < column) return list;
      if (this.indent > column) throw OUTSIDE;
      if (!this.isSequenceEntry(this.start + column)) return list;
    }
  }

  private readEntry(at: number, column: number, spans?: TextSpan[]): unknown {
    let start = at;
    let line = this.line;
    let value: unknown = null;
    if (at < this.end && this.text.charCodeAt(at) !== Char.hash) {
      value = this.readNode(at, column);
    } else {
      this.advance();
      this.skipIgnorable();
      if (!this.atBoundary() && this.indent > column) {
        start = this.start + this.indent;
        line = this.line;
        value = this.readNode(start, column);
      }
    }
    spans?.push({ start, end: Math.min(this.start, this.text.length), line });
    return value;
  }

  /** Offset just past the `:` of an implicit key starting at `at`, or -1; the key is left in `this.key`. */
  private scanKey(at: number): number {
    const first = this.text.charCodeAt(at);
    if (first === Char.quote || first === Char.doubleQuote) return this.scanQuotedKey(at, first);
    if (INDICATORS.has(first) || at >= this.end) return -1;
    const colon = this.keyColon(at);
    if (colon < 0) return -1;
    const key = trimSpaces(this.text.slice(at, colon));
    // Keys that resolve to numbers, booleans or null, and merge keys, are the general parser's.
    if (key === '<<' || typeof resolvePlain(key) !== 'string') throw OUTSIDE;
    this.key = key;
    return colon + 1;
  }

  /** Offset of the `: ` (or line-ending `:`) that ends a plain key from `at`, or -1 if a comment or the line comes first. */
  private keyColon(at: number): number {
    const { text, end } = this;
    for (let index = at; index < end; index++) {
      const code = text.charCodeAt(index);
      if (code === Char.hash && text.charCodeAt(index - 1) === Char.space) return -1;
      if (code === Char.colon && (index + 1 === end || text.charCodeAt(index + 1) === Char.space)) {
        return index;
      }
    }
    return -1;
  }

  private scanQuotedKey(at: number, quote: number): number {
    const close = closingQuote(this.text, at + 1, this.end, quote);
    if (close < 0) return -1;
    const colon = this.skipSpaces(close + 1);
    if (this.text.charCodeAt(colon) !== Char.colon || colon >= this.end) return -1;
    if (colon + 1 < this.end && this.text.charCodeAt(colon + 1) !== Char.space) return -1;
    this.key = unquote(this.text.slice(at + 1, close), quote);
    return colon + 1;
  }
}
