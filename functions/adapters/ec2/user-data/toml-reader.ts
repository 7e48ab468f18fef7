/**
 * Reads TOML 1.0 documents such as Bottlerocket user data into plain values, so Nodesmith's
 * settings can be merged into the user's. Everything but dates and times is read; they would
 * only be written back, and Bottlerocket's settings use none.
 */
import { TomlCursor } from './toml-cursor.ts';

/** A float kept apart from integers, so that `1.0` is written back as a float. */
export class TomlFloat {
  constructor(readonly value: number) {}
}

export type TomlValue = string | number | boolean | TomlFloat | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

export function isTable(value: TomlValue | undefined): value is TomlTable {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof TomlFloat)
  );
}

interface ReadState {
  readonly root: TomlTable;
  /** Tables a `[header]` defined: a second header for one is a duplicate. */
  readonly defined: Set<TomlTable>;
  /** Inline tables are complete where they are written. */
  readonly inline: WeakSet<TomlTable>;
}

export function parseToml(text: string): TomlTable {
  const cursor = new TomlCursor(text);
  const state: ReadState = { root: {}, defined: new Set(), inline: new WeakSet() };
  let current = state.root;
  for (;;) {
    cursor.skipBlank();
    if (cursor.atEnd()) return state.root;
    if (cursor.peek() === '[') current = header(cursor, state);
    else keyValue(cursor, current, state);
    cursor.endOfLine();
  }
}

function header(cursor: TomlCursor, state: ReadState): TomlTable {
  const isArray = cursor.startsWith('[[');
  cursor.advance(isArray ? 2 : 1);
  cursor.skipSpaces();
  const keys = cursor.keys();
  cursor.expect(isArray ? ']]' : ']');
  const parent = descend(cursor, state, state.root, keys.slice(0, -1));
  const key = keys.at(-1) ?? '';
  const existing = parent[key];
  if (isArray) {
    const table: TomlTable = {};
    if (existing === undefined) parent[key] = [table];
    else if (Array.isArray(existing)) existing.push(table);
    else cursor.fail(`${key} is not an array of tables`);
    return table;
  }
  if (existing !== undefined && (!isTable(existing) || state.defined.has(existing))) {
    cursor.fail(`table ${keys.join('.')} is defined twice`);
  }
  const table = existing ?? {};
  parent[key] = table;
  state.defined.add(table);
  return table;
}

/** The table a dotted key leads to, creating the tables it names; `[[x]]` leads to x's last table. */
function descend(
  cursor: TomlCursor,
  state: ReadState,
  from: TomlTable,
  keys: readonly string[],
): TomlTable {
  let table = from;
  for (const key of keys) {
    const existing = table[key];
    const next = Array.isArray(existing) ? existing.at(-1) : (existing ?? {});
    if (!isTable(next) || state.inline.has(next)) cursor.fail(`${key} is not a table`);
    table[key] = existing ?? next;
    table = next;
  }
  return table;
}

function keyValue(cursor: TomlCursor, table: TomlTable, state: ReadState): void {
  const keys = cursor.keys();
  cursor.skipSpaces();
  cursor.expect('=');
  cursor.skipSpaces();
  const value = readValue(cursor, state);
  const target = descend(cursor, state, table, keys.slice(0, -1));
  const key = keys.at(-1) ?? '';
  if (Object.hasOwn(target, key)) cursor.fail(`key ${keys.join('.')} is defined twice`);
  target[key] = value;
}

function readValue(cursor: TomlCursor, state: ReadState): TomlValue {
  const next = cursor.peek();
  if (next === '"' || next === "'") return cursor.string();
  if (next === '[') return readArray(cursor, state);
  if (next === '{') return readInlineTable(cursor, state);
  return scalar(cursor, cursor.token());
}

function readArray(cursor: TomlCursor, state: ReadState): TomlValue[] {
  cursor.expect('[');
  const items: TomlValue[] = [];
  for (;;) {
    cursor.skipBlank();
    if (cursor.peek() === ']') break;
    items.push(readValue(cursor, state));
    cursor.skipBlank();
    if (cursor.peek() === ',') cursor.advance();
    else if (cursor.peek() !== ']') cursor.fail('expected , or ] in an array');
  }
  cursor.advance();
  return items;
}

function readInlineTable(cursor: TomlCursor, state: ReadState): TomlTable {
  cursor.expect('{');
  const table: TomlTable = {};
  cursor.skipSpaces();
  while (cursor.peek() !== '}') {
    keyValue(cursor, table, state);
    cursor.skipSpaces();
    if (cursor.peek() === ',') {
      cursor.advance();
      cursor.skipSpaces();
    } else if (cursor.peek() !== '}') cursor.fail('expected , or } in an inline table');
  }
  cursor.advance();
  state.inline.add(table);
  return table;
}

const DECIMAL = /^[+-]?(0|[1-9](_?[0-9])*)$/;
const FLOAT = /^[+-]?(0|[1-9](_?[0-9])*)(\.[0-9](_?[0-9])*)?([eE][+-]?[0-9](_?[0-9])*)?$/;
const RADIX: readonly [RegExp, number][] = [
  [/^0x[0-9A-Fa-f](_?[0-9A-Fa-f])*$/, 16],
  [/^0o[0-7](_?[0-7])*$/, 8],
  [/^0b[01](_?[01])*$/, 2],
];

function scalar(cursor: TomlCursor, token: string): TomlValue {
  if (token === 'true' || token === 'false') return token === 'true';
  if (DECIMAL.test(token)) return Number(token.replace(/_/g, ''));
  for (const [pattern, radix] of RADIX) {
    if (pattern.test(token)) return Number.parseInt(token.slice(2).replace(/_/g, ''), radix);
  }
  if (FLOAT.test(token)) return new TomlFloat(Number(token.replace(/_/g, '')));
  const special = /^([+-]?)(inf|nan)$/.exec(token);
  if (special !== null) {
    const value = special[2] === 'inf' ? Number.POSITIVE_INFINITY : Number.NaN;
    return new TomlFloat(special[1] === '-' ? -value : value);
  }
  if (/^[0-9]{2,4}[-:]/.test(token)) cursor.fail('dates and times are not supported');
  return cursor.fail(token === '' ? 'expected a value' : `invalid value ${token}`);
}
