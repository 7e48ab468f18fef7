/**
 * Whether a log event matches a CloudWatch Logs filter pattern (Amazon CloudWatch Logs User
 * Guide, "Filter pattern syntax"): a JSON pattern `{ $.a.b = "x" && ($.c != 1 || $.d > 2) }`
 * with its comparisons, `*` wildcards in strings and `&&`, `||` and parentheses; or terms that
 * must all appear in the message (a `-term` must not); the empty pattern matches every event.
 */

type Token = string;

const TOKEN =
  /\s*("(?:[^"\\]|\\.)*"|&&|\|\||!=|>=|<=|=|<|>|\(|\)|\$[^\s=!<>()&|]*|[^\s=!<>()&|"]+)/y;

function tokens(text: string): Token[] {
  const out: Token[] = [];
  let at = 0;
  for (TOKEN.lastIndex = 0; ; at = TOKEN.lastIndex) {
    const m = TOKEN.exec(text);
    if (m === null) break;
    out.push(m[1] ?? '');
  }
  if (text.slice(at).trim() !== '') throw new Error(`cannot read filter pattern ${text}`);
  return out;
}

/** `$.objectRef.resource`, `$.items[0].name` of the event. */
function selected(event: unknown, selector: string): unknown {
  const keys = selector.replace(/^\$\.?/, '').match(/[^.[\]]+/g) ?? [];
  return keys.reduce<unknown>(
    (value, key) => (value as Record<string, unknown> | null)?.[key],
    event,
  );
}

function compared(actual: unknown, operator: string, literal: string): boolean {
  if (literal.startsWith('"') || Number.isNaN(Number(literal))) {
    const text = literal.startsWith('"') ? (JSON.parse(literal) as string) : literal;
    const pattern = new RegExp(
      `^${text
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    const equal = typeof actual === 'string' && pattern.test(actual);
    return operator === '!=' ? !equal : operator === '=' && equal;
  }
  if (typeof actual !== 'number') return operator === '!=';
  const n = Number(literal);
  const results: Record<string, boolean> = {
    '=': actual === n,
    '!=': actual !== n,
    '<': actual < n,
    '<=': actual <= n,
    '>': actual > n,
    '>=': actual >= n,
  };
  return results[operator] ?? false;
}

/** A recursive descent over the tokens of a JSON pattern's inside. */
class JsonPattern {
  #at = 0;

  constructor(
    readonly tokens: readonly Token[],
    readonly event: unknown,
  ) {}

  matches(): boolean {
    const result = this.#or();
    if (this.#at !== this.tokens.length) throw new Error(`unexpected ${this.tokens[this.#at]}`);
    return result;
  }

  #or(): boolean {
    let result = this.#and();
    while (this.tokens[this.#at] === '||') {
      this.#at += 1;
      result = this.#and() || result;
    }
    return result;
  }

  #and(): boolean {
    let result = this.#term();
    while (this.tokens[this.#at] === '&&') {
      this.#at += 1;
      result = this.#term() && result;
    }
    return result;
  }

  #term(): boolean {
    const token = this.tokens[this.#at++] ?? '';
    if (token === '(') {
      const result = this.#or();
      if (this.tokens[this.#at++] !== ')') throw new Error('a parenthesis is not closed');
      return result;
    }
    const [operator = '', literal = ''] = [this.tokens[this.#at++], this.tokens[this.#at++]];
    return compared(selected(this.event, token), operator, literal);
  }
}

function termsMatch(pattern: string, message: string): boolean {
  const terms = pattern.match(/-?"[^"]*"|\S+/g) ?? [];
  return terms.every((term) => {
    const excluded = term.startsWith('-');
    const text = term.replace(/^-/, '').replace(/^"(.*)"$/, '$1');
    return message.includes(text) !== excluded;
  });
}

export function filterMatches(pattern: string, message: string): boolean {
  const trimmed = pattern.trim();
  if (trimmed === '' || trimmed === '""') return true;
  if (!trimmed.startsWith('{')) return termsMatch(trimmed, message);
  let event: unknown;
  try {
    event = JSON.parse(message);
  } catch {
    return false;
  }
  return new JsonPattern(tokens(trimmed.slice(1, -1)), event).matches();
}
