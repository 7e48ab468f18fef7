/**
 * The scalars of the block-YAML reader, each starting on the current line: plain (also folded
 * over several lines), single- and double-quoted (also folded), literal block scalars, and the
 * empty flow collections `{}` and `[]` kubectl writes for empty fields.
 */
import { resolvePlain } from './core-schema.ts';
import { Char, LineCursor, OUTSIDE } from './line-cursor.ts';
import { closingQuote, endsInEscape, trimSpaces, unquote } from './quoted-scalar.ts';

/** Characters that cannot start a plain scalar in block context (`-` is handled apart). */
export const INDICATORS = new Set([...'?:,[]{}#&*!|>\'"%@`'].map((c) => c.charCodeAt(0)));

export class ScalarReader extends LineCursor {
  /** Whether the line last read by `plainLine` ended in a comment, which ends the scalar too. */
  private commented = false;

  /** A scalar (or `{}`/`[]`) that starts on the current line, inside a block indented by `parent`. */
  protected readInlineValue(at: number, parent: number): unknown {
    const first = this.text.charCodeAt(at);
    if (first === Char.quote || first === Char.doubleQuote) {
      return this.readQuoted(at, parent, first);
    }
    if (first === Char.pipe) return this.readLiteral(at, parent);
    if (first === Char.leftBrace || first === Char.leftBracket) {
      return this.readEmptyFlow(at, first);
    }
    // An indicator or a `- ` entry where a scalar should start is structure this reader leaves alone.
    if (INDICATORS.has(first) || this.isSequenceEntry(at)) throw OUTSIDE;
    return resolvePlain(this.readPlain(at, parent));
  }

  private readEmptyFlow(at: number, open: number): unknown {
    const close = open === Char.leftBrace ? Char.rightBrace : Char.rightBracket;
    if (this.text.charCodeAt(at + 1) !== close || at + 1 >= this.end) throw OUTSIDE;
    this.expectLineEnd(at + 2);
    this.advance();
    return open === Char.leftBrace ? {} : [];
  }

  /** The text of one line of a plain scalar from `at`: up to a comment, never holding `: `. */
  private plainLine(at: number): string {
    const { text, end } = this;
    this.commented = false;
    for (let index = at; index < end; index++) {
      const code = text.charCodeAt(index);
      if (code === Char.hash && text.charCodeAt(index - 1) === Char.space) {
        this.commented = true;
        return trimSpaces(text.slice(at, index));
      }
      if (code === Char.colon && (index + 1 === end || text.charCodeAt(index + 1) === Char.space)) {
        throw OUTSIDE;
      }
    }
    return trimSpaces(text.slice(at, end));
  }

  /** A plain scalar; lines indented deeper than its block continue it, folded as YAML folds them. */
  private readPlain(at: number, parent: number): string {
    let value = this.plainLine(at);
    let breaks = 0;
    this.advance();
    if (this.commented) return value;
    while (!this.done) {
      if (this.isBlank()) {
        breaks++;
        this.advance();
        continue;
      }
      if (this.indent <= parent) break;
      const start = this.start + this.indent;
      const code = this.text.charCodeAt(start);
      if (code === Char.hash) break;
      if (this.hasTab() || INDICATORS.has(code) || code === Char.dash) throw OUTSIDE;
      const next = this.plainLine(start);
      value += breaks === 0 ? ` ${next}` : '\n'.repeat(breaks) + next;
      breaks = 0;
      this.advance();
      if (this.commented) break;
    }
    return value;
  }

  private readQuoted(at: number, parent: number, quote: number): string {
    const close = closingQuote(this.text, at + 1, this.end, quote);
    if (close < 0) return this.readFoldedQuoted(at, parent, quote);
    this.expectLineEnd(close + 1);
    const value = unquote(this.text.slice(at + 1, close), quote);
    this.advance();
    return value;
  }

  /** A quoted scalar over several lines: each break folds to a space, each empty line to a newline. */
  private readFoldedQuoted(at: number, parent: number, quote: number): string {
    let value = this.foldedSegment(this.text.slice(at + 1, this.end), quote);
    for (;;) {
      const breaks = this.nextContinuation(parent);
      const start = this.start + this.indent;
      const close = closingQuote(this.text, start, this.end, quote);
      const raw = this.text.slice(start, close < 0 ? this.end : close);
      const segment = close < 0 ? this.foldedSegment(raw, quote) : unquote(raw, quote);
      value += (breaks === 0 ? ' ' : '\n'.repeat(breaks)) + segment;
      if (close >= 0) {
        this.expectLineEnd(close + 1);
        this.advance();
        return value;
      }
    }
  }

  /** Moves to the next line of a quoted scalar, which must be indented deeper than `parent`; returns the empty lines passed. */
  private nextContinuation(parent: number): number {
    let breaks = 0;
    this.advance();
    while (!this.done && this.isBlank()) {
      breaks++;
      this.advance();
    }
    if (this.done || this.indent <= parent || this.hasTab()) throw OUTSIDE;
    return breaks;
  }

  private foldedSegment(raw: string, quote: number): string {
    const trimmed = trimSpaces(raw);
    if (quote === Char.doubleQuote && endsInEscape(trimmed)) throw OUTSIDE;
    return unquote(trimmed, quote);
  }

  /** A literal block scalar (`|` or `|-`); its lines are indented deeper than `parent`. */
  private readLiteral(at: number, parent: number): string {
    const strip = this.text.charCodeAt(at + 1) === Char.dash;
    this.expectLineEnd(at + (strip ? 2 : 1));
    this.advance();
    const lines: string[] = [];
    let widestBlank = 0;
    while (!this.done && this.isBlank()) {
      widestBlank = Math.max(widestBlank, this.indent);
      lines.push('');
      this.advance();
    }
    const indent = this.indent;
    if (this.done || indent <= parent) return '';
    if (widestBlank > indent) throw OUTSIDE;
    const trailing = this.readLiteralLines(indent, lines);
    lines.length -= trailing;
    const body = lines.join('\n');
    return strip ? body : `${body}\n`;
  }

  /** Collects content lines into `lines`; returns how many empty lines end it (chomped). */
  private readLiteralLines(indent: number, lines: string[]): number {
    let trailing = 0;
    while (!this.done) {
      if (this.isBlank()) {
        // A whitespace-only line wider than the indentation is content; leave that rare case to the general parser.
        if (this.indent > indent) throw OUTSIDE;
        lines.push('');
        trailing++;
      } else if (this.indent >= indent) {
        lines.push(this.text.slice(this.start + indent, this.end));
        trailing = 0;
      } else {
        break;
      }
      this.advance();
    }
    return trailing;
  }
}
