/**
 * Writes TOML: each table under its own `[header]` with its plain values first, arrays inline.
 * Keys keep their insertion order, so the same settings always give the same bytes (and the
 * same launch template).
 */
import { isTable, TomlFloat, type TomlTable, type TomlValue } from './toml-reader.ts';

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

function formatKey(key: string): string {
  return BARE_KEY.test(key) ? key : formatString(key);
}

function formatFloat(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const text = String(value);
  return /[.eE]/.test(text) ? text : `${text}.0`;
}

/** JSON's string escapes are TOML's, but TOML also forbids a raw DEL. */
function formatString(value: string): string {
  return JSON.stringify(value).replace(/\x7f/g, '\\u007f');
}

/** One value on one line. */
export function formatValue(value: TomlValue): string {
  if (typeof value === 'string') return formatString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof TomlFloat) return formatFloat(value.value);
  if (Array.isArray(value)) return `[${value.map(formatValue).join(', ')}]`;
  const pairs = Object.entries(value).map(
    ([key, item]) => `${formatKey(key)} = ${formatValue(item)}`,
  );
  return `{ ${pairs.join(', ')} }`;
}

function writeTable(table: TomlTable, path: readonly string[], lines: string[]): void {
  if (path.length > 0) lines.push(`[${path.map(formatKey).join('.')}]`);
  const tables: [string, TomlTable][] = [];
  for (const [key, value] of Object.entries(table)) {
    if (isTable(value)) tables.push([key, value]);
    else lines.push(`${formatKey(key)} = ${formatValue(value)}`);
  }
  for (const [key, value] of tables) writeTable(value, [...path, key], lines);
}

export function stringifyToml(table: TomlTable): string {
  const lines: string[] = [];
  writeTable(table, [], lines);
  return `${lines.join('\n')}\n`;
}
