/**
 * The embedded-metric-format lines Powertools writes to standard output while `run` runs, read
 * back as objects: what CloudWatch would turn into metrics.
 */
import { vi } from 'vitest';

// biome-ignore lint/suspicious/noExplicitAny: an EMF line is free-form JSON keyed by metric and dimension names.
export type EmfLine = Record<string, any>;

export async function emfLinesOf(run: () => Promise<unknown>): Promise<EmfLine[]> {
  const lines: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
  try {
    await run();
  } finally {
    write.mockRestore();
    vi.unstubAllEnvs();
  }
  return lines
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.includes('"_aws"'))
    .map((l) => JSON.parse(l));
}
