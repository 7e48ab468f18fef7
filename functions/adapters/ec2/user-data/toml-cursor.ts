/**
 * The lexical half of the TOML reader (TOML 1.0): a position in the text, white space and
 * comments, keys and strings. Values and tables are read by toml-reader.ts.
 */

export class TomlError extends Error {
  override readonly name = 'TomlError';
}

const BARE_KEY = /[A-Za-z0-9_-]/;
const ESCAPES: Readonly<Record<string, string>> = {
  b: '\b',
  t: '\t',
  n: '\n',
  f: '\f',
  r: '\r',
  '"': '"',
  '\\': '\\',
};

export class TomlCursor {
  readonly #text: string;
  #position = 0;

  constructor(text: string) {
    this.#text = text.replace(/\r\n/g, '\n');
  }

  peek(offset = 0): string {
    return this.#text.charAt(this.#position + offset);
  }

  startsWith(token: string): boolean {
    return this.#text.startsWith(token, this.#position);
  }

  atEnd(): boolean {
    return this.#position >= this.#text.length;
  }

  advance(count = 1): void {
    this.#position += count;
  }

  fail(message: string): never {
    const line = this.#text.slice(0, this.#position).split('\n').length;
    throw new TomlError(`toml line ${line}: ${message}`);
  }

  expect(token: string): void {
    if (!this.startsWith(token)) this.fail(`expected ${token}`);
    this.advance(token.length);
  }

  /** Spaces and tabs only: a key/value pair and a header each stay on their line. */
  skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.advance();
  }

  skipComment(): void {
    if (this.peek() !== '#') return;
    while (!this.atEnd() && this.peek() !== '\n') this.advance();
  }

  /** Spaces, comments and newlines: between statements and inside arrays. */
  skipBlank(): void {
    for (;;) {
      this.skipSpaces();
      this.skipComment();
      if (this.peek() !== '\n') return;
      this.advance();
    }
  }

  /** Nothing but a comment may follow a statement on its line. */
  endOfLine(): void {
    this.skipSpaces();
    this.skipComment();
    if (this.atEnd()) return;
    if (this.peek() !== '\n') this.fail(`unexpected ${JSON.stringify(this.peek())}`);
    this.advance();
  }

  /** A dotted key: `a`, `a.b`, `"a.b".c`. */
  keys(): string[] {
    const keys = [this.key()];
    for (;;) {
      this.skipSpaces();
      if (this.peek() !== '.') return keys;
      this.advance();
      this.skipSpaces();
      keys.push(this.key());
    }
  }

  key(): string {
    if (this.peek() === '"') return this.basicString();
    if (this.peek() === "'") return this.literalString();
    const start = this.#position;
    while (BARE_KEY.test(this.peek())) this.advance();
    if (this.#position === start) this.fail('expected a key');
    return this.#text.slice(start, this.#position);
  }

  /** Any string form, the cursor on its opening quote. */
  string(): string {
    if (this.startsWith('"""')) return this.multilineBasicString();
    if (this.startsWith("'''")) return this.#until("'''", true);
    return this.peek() === '"' ? this.basicString() : this.literalString();
  }

  basicString(): string {
    this.expect('"');
    let out = '';
    while (this.peek() !== '"') {
      if (this.atEnd() || this.peek() === '\n') this.fail('unterminated string');
      out += this.peek() === '\\' ? this.#escape() : this.#take();
    }
    this.advance();
    return out;
  }

  literalString(): string {
    this.expect("'");
    const start = this.#position;
    while (this.peek() !== "'") {
      if (this.atEnd() || this.peek() === '\n') this.fail('unterminated string');
      this.advance();
    }
    this.advance();
    return this.#text.slice(start, this.#position - 1);
  }

  multilineBasicString(): string {
    this.expect('"""');
    if (this.peek() === '\n') this.advance();
    let out = '';
    while (!this.startsWith('"""')) {
      if (this.atEnd()) this.fail('unterminated string');
      if (this.peek() !== '\\') out += this.#take();
      else if (/^\\[ \t]*\n/.test(this.#text.slice(this.#position))) this.#skipLineContinuation();
      else out += this.#escape();
    }
    this.advance(3);
    return out;
  }

  #take(): string {
    const char = this.peek();
    this.advance();
    return char;
  }

  /** A backslash at a line's end joins the lines, dropping the white space between them. */
  #skipLineContinuation(): void {
    this.advance();
    while (/[ \t\n]/.test(this.peek()) && !this.atEnd()) this.advance();
  }

  #escape(): string {
    this.advance();
    const code = this.#take();
    const simple = ESCAPES[code];
    if (simple !== undefined) return simple;
    const digits = code === 'u' ? 4 : code === 'U' ? 8 : 0;
    const hex = this.#text.slice(this.#position, this.#position + digits);
    if (digits === 0 || !/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== digits) {
      this.fail(`invalid escape \\${code}`);
    }
    this.advance(digits);
    return String.fromCodePoint(Number.parseInt(hex, 16));
  }

  #until(delimiter: string, trimFirstNewline: boolean): string {
    this.expect(delimiter);
    if (trimFirstNewline && this.peek() === '\n') this.advance();
    const end = this.#text.indexOf(delimiter, this.#position);
    if (end < 0) this.fail('unterminated string');
    const out = this.#text.slice(this.#position, end);
    this.#position = end + delimiter.length;
    return out;
  }

  /** The characters a number, boolean or date is made of, for the reader to classify. */
  token(): string {
    const start = this.#position;
    while (/[0-9A-Za-z_+\-.:]/.test(this.peek())) this.advance();
    return this.#text.slice(start, this.#position);
  }
}
