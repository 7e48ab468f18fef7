/**
 * Durations as Kubernetes and Karpenter write them: Go's `time.ParseDuration` syntax (`720h`,
 * `1h30m`, `1.5h`, `500ms`), read into milliseconds.
 */

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const PART = /([0-9]+(?:\.[0-9]+)?)(ns|us|µs|ms|s|m|h)/y;

/** Milliseconds, or undefined when the text is not a Go duration. `0` is allowed, as in Go. */
export function parseDuration(text: string): number | undefined {
  if (text === '0') return 0;
  if (text === '') return undefined;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < text.length) {
    const match = PART.exec(text);
    if (match === null) return undefined;
    total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
  }
  return total;
}

/** A NodePool duration that may be `Never`: undefined means the behaviour is off. */
export function durationOrNever(text: string | undefined, fallbackMs: number): number | undefined {
  if (text === undefined) return fallbackMs;
  if (text === 'Never') return undefined;
  return parseDuration(text);
}

/** `1h30m`, `45s`: a duration for people, to the second. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const parts = [h > 0 ? `${h}h` : '', m > 0 ? `${m}m` : '', s > 0 || seconds === 0 ? `${s}s` : ''];
  return parts.join('');
}
