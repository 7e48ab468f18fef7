/**
 * How a plain (unquoted) YAML scalar resolves under the YAML 1.2 core schema: the same tests in
 * the same order as the `yaml` package (null, bool, octal, decimal and hex integers, special
 * floats, exponent floats, floats), so both readers of a document give the same values.
 */

const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** First characters (by code) with which a scalar can resolve to something other than a string. */
const MAY_BE_TYPED = new Uint8Array(128);
for (const char of '0123456789+-.~nNtTfF') MAY_BE_TYPED[char.charCodeAt(0)] = 1;

export type PlainValue = string | number | boolean | null;

/** Whether the text is all decimal digits, the commonest typed scalar (ports, counts, seconds). */
function isDigits(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

function resolveNumber(text: string): number | undefined {
  if (isDigits(text)) return Number.parseInt(text, 10);
  if (INT_OCT.test(text)) return Number.parseInt(text.substring(2), 8);
  if (INT.test(text)) return Number.parseInt(text, 10);
  if (INT_HEX.test(text)) return Number.parseInt(text.substring(2), 16);
  if (FLOAT_SPECIAL.test(text)) {
    if (text.slice(-3).toLowerCase() === 'nan') return Number.NaN;
    return text[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (FLOAT_EXP.test(text) || FLOAT.test(text)) return Number.parseFloat(text);
  return undefined;
}

export function resolvePlain(text: string): PlainValue {
  if (text === '') return null;
  // Most scalars (names, label values, images) start with a letter no typed scalar starts with.
  if (MAY_BE_TYPED[text.charCodeAt(0)] !== 1) return text;
  if (NULL.test(text)) return null;
  if (BOOL.test(text)) return text[0] === 't' || text[0] === 'T';
  return resolveNumber(text) ?? text;
}
