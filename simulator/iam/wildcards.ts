/**
 * Matching with IAM's wildcards: `*` any run of characters, `?` exactly one (IAM User Guide,
 * "IAM JSON policy elements: Condition operators", StringLike). ARNs match component by component:
 * a wildcard in one of the first five colon-separated components never crosses into the next, so
 * `arn:aws:s:*:111122223333:finance/*` does not match an ARN of another account whose resource
 * happens to contain `111122223333:finance/` (the guide's ArnLike example).
 */

/** Whether a value matches one glob; made once per glob, as a run asks the same ones all along. */
type Matcher = (value: string) => boolean;

const matchers = { exact: new Map<string, Matcher>(), ignoringCase: new Map<string, Matcher>() };

function compile(glob: string, ignoreCase: boolean): Matcher {
  if (glob === '*') return () => true;
  if (!glob.includes('*') && !glob.includes('?')) {
    if (!ignoreCase) return (value) => value === glob;
    const lower = glob.toLowerCase();
    return (value) => value.toLowerCase() === lower;
  }
  const source = glob
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\/-]/g, '\\$&')))
    .join('');
  const pattern = new RegExp(`^${source}$`, ignoreCase ? 'is' : 's');
  return (value) => pattern.test(value);
}

export function globMatches(glob: string, value: string, ignoreCase = false): boolean {
  const cache = ignoreCase ? matchers.ignoringCase : matchers.exact;
  let matcher = cache.get(glob);
  if (matcher === undefined) {
    matcher = compile(glob, ignoreCase);
    cache.set(glob, matcher);
  }
  return matcher(value);
}

const components = new Map<string, readonly string[] | null>();

/** The six components of an ARN: `arn`, partition, service, region, account, resource. */
function componentsOf(arn: string): readonly string[] | undefined {
  let split = components.get(arn);
  if (split === undefined) {
    const parts = arn.split(':');
    split = parts.length < 6 ? null : [...parts.slice(0, 5), parts.slice(5).join(':')];
    components.set(arn, split);
  }
  return split ?? undefined;
}

export function arnMatches(pattern: string, arn: string): boolean {
  if (pattern === '*') return true;
  const wanted = componentsOf(pattern);
  const actual = componentsOf(arn);
  if (wanted === undefined || actual === undefined) return pattern === arn;
  return wanted.every((glob, i) => globMatches(glob, actual[i] ?? ''));
}
