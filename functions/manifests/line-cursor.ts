/**
 * The line-by-line position of the block-YAML reader: the current line's bounds, its number and
 * its indentation, plus the checks every structural line needs (blank, comment, marker, tab).
 */

export const Char = {
  tab: 9,
  space: 32,
  doubleQuote: 34,
  hash: 35,
  percent: 37,
  quote: 39,
  dash: 45,
  dot: 46,
  colon: 58,
  leftBracket: 91,
  backslash: 92,
  rightBracket: 93,
  leftBrace: 123,
  pipe: 124,
  rightBrace: 125,
} as const;

/** Thrown to unwind when the text leaves the supported subset; the reader turns it into `undefined`. */
export class OutsideSubset extends Error {
  override readonly name = 'OutsideSubset';
}

/** One shared instance: leaving the subset is control flow here, and a stack trace per throw would be waste. */
export const OUTSIDE = new OutsideSubset('text outside the block-YAML subset');

export class LineCursor {
  readonly text: string;
  /** Offset of the current line's first character. */
  start = 0;
  /** Offset of the current line's `\n`, or the text length on the last line. */
  end = 0;
  /** 1-based number of the current line. */
  line = 1;
  /** Leading spaces of the current line. */
  indent = 0;
  private nextTab: number;

  constructor(text: string) {
    this.text = text;
    this.nextTab = text.indexOf('\t');
    this.load(0, 1);
  }

  get done(): boolean {
    return this.start >= this.text.length;
  }

  advance(): void {
    this.load(this.end + 1, this.line + 1);
  }

  isBlank(): boolean {
    return this.indent === this.end - this.start;
  }

  /** Tabs are legal YAML whitespace in places this reader does not model, so a tab outside a scalar ends the fast path. */
  hasTab(): boolean {
    if (this.nextTab !== -1 && this.nextTab < this.start) {
      this.nextTab = this.text.indexOf('\t', this.start);
    }
    return this.nextTab !== -1 && this.nextTab < this.end;
  }

  skipSpaces(from: number): number {
    let at = from;
    while (at < this.end && this.text.charCodeAt(at) === Char.space) at++;
    return at;
  }

  /** Skips blank and comment lines; stops on the next line with content. */
  skipIgnorable(): void {
    while (!this.done) {
      if (!this.isBlank() && this.text.charCodeAt(this.start + this.indent) !== Char.hash) {
        if (this.hasTab()) throw OUTSIDE;
        return;
      }
      this.advance();
    }
  }

  /** Whether the current line ends a document: the end of the text or a `---` separator. */
  atBoundary(): boolean {
    if (this.done) return true;
    if (this.indent !== 0) return false;
    const { text, start } = this;
    const first = text.charCodeAt(start);
    if (first === Char.percent) throw OUTSIDE;
    if (first !== Char.dash && first !== Char.dot) return false;
    const marker = first === Char.dash ? '---' : '...';
    if (!text.startsWith(marker, start)) return false;
    if (start + 3 < this.end && text.charCodeAt(start + 3) !== Char.space) return false;
    if (first === Char.dot || this.skipSpaces(start + 3) !== this.end) throw OUTSIDE;
    return true;
  }

  /** Whether a block sequence entry (`- ` or a lone `-`) starts at `at`. */
  isSequenceEntry(at: number): boolean {
    if (this.text.charCodeAt(at) !== Char.dash || at >= this.end) return false;
    return at + 1 === this.end || this.text.charCodeAt(at + 1) === Char.space;
  }

  /** Only spaces, or spaces and a comment, may follow a complete value on its line. */
  expectLineEnd(from: number): void {
    const at = this.skipSpaces(from);
    if (at === this.end) return;
    if (at > from && this.text.charCodeAt(at) === Char.hash) return;
    throw OUTSIDE;
  }

  private load(start: number, line: number): void {
    const { text } = this;
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    let at = start;
    while (at < end && text.charCodeAt(at) === Char.space) at++;
    this.start = start;
    this.end = end;
    this.line = line;
    this.indent = at - start;
  }
}
