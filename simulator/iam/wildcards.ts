/**
 * Matching with IAM's wildcards: `*` any run of characters, `?` exactly one (IAM User Guide,
 * "IAM JSON policy elements: Condition operators", StringLike). ARNs match component by component:
 * a wildcard in one of the first five colon-separated components never crosses into the next, so
 * `arn:aws:s:*:111122223333:finance/*` does not match an ARN of another account whose resource
 * happens to contain `111122223333:finance/` (the guide's ArnLike example).
 */

const compiled = new Map<string, RegExp>();

function patternOf(glob: string, ignoreCase: boolean): RegExp {
  const key = `${ignoreCase ? 'i' : 's'}${glob}`;
  let pattern = compiled.get(key);
  if (pattern === undefined) {
    const source = glob
      .split('')
      .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\/-]/g, '\\$&')))
      .join('');
    pattern = new RegExp(`^${source}$`, ignoreCase ? 'is' : 's');
    compiled.set(key, pattern);
  }
  return pattern;
}

export function globMatches(glob: string, value: string, ignoreCase = false): boolean {
  return patternOf(glob, ignoreCase).test(value);
}

/** The six components of an ARN: `arn`, partition, service, region, account, resource. */
function componentsOf(arn: string): string[] | undefined {
  const parts = arn.split(':');
  if (parts.length < 6) return undefined;
  return [...parts.slice(0, 5), parts.slice(5).join(':')];
}

export function arnMatches(pattern: string, arn: string): boolean {
  if (pattern === '*') return true;
  const wanted = componentsOf(pattern);
  const actual = componentsOf(arn);
  if (wanted === undefined || actual === undefined) return pattern === arn;
  return wanted.every((glob, i) => globMatches(glob, actual[i] ?? ''));
}
