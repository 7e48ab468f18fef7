/** Plain-text tables and counts for the commands' human output. */

/** Columns padded to their widest cell; the last column runs free. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** A present-tense verb agreeing with `count` things: `1 node stays`, `2 nodes stay`. */
export function agree(count: number, verb: string): string {
  return count === 1 ? `${verb}s` : verb;
}
