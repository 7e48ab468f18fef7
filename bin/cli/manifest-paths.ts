/**
 * The files `-f` names, as kubectl reads them: a file as it is (`-` is standard input), a
 * directory as its `.yaml`, `.yml` and `.json` files in name order, and its subdirectories too
 * with `-R`/`--recursive`.
 */
import { readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    // A path that cannot be read is left to the reader, which names the problem.
    return false;
  }
}

function filesIn(directory: string, recursive: boolean): string[] {
  const entries = readdirSync(directory, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  return entries.flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return recursive ? filesIn(path, true) : [];
    return MANIFEST_EXTENSIONS.has(extname(entry.name)) ? [path] : [];
  });
}

export function manifestPaths(paths: readonly string[], recursive: boolean): string[] {
  return paths.flatMap((path) =>
    path !== '-' && isDirectory(path) ? filesIn(path, recursive) : [path],
  );
}
