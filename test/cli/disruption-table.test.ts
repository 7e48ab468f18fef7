import { describe, expect, it } from 'vitest';
import { renderDisruptionTable } from '../../bin/cli/disruption-table.ts';

describe('the disruption table', () => {
  it.each([
    [1, '0 decisions: 0 nodes to go, saving $0.0000 per hour; 1 node stays'],
    [2, '0 decisions: 0 nodes to go, saving $0.0000 per hour; 2 nodes stay'],
  ])('makes the verb agree with %i staying node(s)', (count, summary) => {
    // Prepare
    const staying = Array.from({ length: count }, (_, i) => ({
      node: `node-${i}`,
      code: 'NoCheaperReplacement' as const,
      reason: 'no cheaper replacement',
    }));

    // Act
    const text = renderDisruptionTable({ decisions: [], staying });

    // Assess
    expect(text.trimEnd().split('\n').at(-1)).toBe(summary);
  });
});
