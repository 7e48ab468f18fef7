/** Single- and double-quoted YAML scalars within one line: where they close and what they mean. */
import { Char, OUTSIDE } from './line-cursor.ts';

/** Offset of the quote closing a scalar opened before `from`, or -1 when it does not close on this line. */
export function closingQuote(text: string, from: number, end: number, quote: number): number {
  for (let at = from; at < end; at++) {
    const code = text.charCodeAt(at);
    if (quote === Char.doubleQuote && code === Char.backslash) {
      at++;
    } else if (code === quote) {
      if (quote === Char.quote && at + 1 < end && text.charCodeAt(at + 1) === Char.quote) at++;
      else return at;
    }
  }
  return -1;
}

/**
 * The value of a quoted run. The escapes shared by YAML and JSON mean the same in both, so JSON
 * decodes them; any other escape leaves the subset.
 */
export function unquote(raw: string, quote: number): string {
  if (quote === Char.quote) return raw.includes("''") ? raw.replaceAll("''", "'") : raw;
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    throw OUTSIDE;
  }
}

/** Drops the spaces that end a line of a multi-line scalar (folding discards them). */
export function trimSpaces(raw: string): string {
  let end = raw.length;
  while (end > 0 && raw.charCodeAt(end - 1) === Char.space) end--;
  return end === raw.length ? raw : raw.slice(0, end);
}

/** A line of a double-quoted scalar that ends in an escape (`\` before the break) joins differently: leave the subset. */
export function endsInEscape(raw: string): boolean {
  let count = 0;
  for (let at = raw.length - 1; at >= 0 && raw.charCodeAt(at) === Char.backslash; at--) count++;
  return count % 2 === 1;
}
