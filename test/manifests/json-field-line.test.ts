/**
 * Lines in JSON, found by jsonc-parser only when an error asks: every node's line agrees with
 * the `yaml` package's positions (JSON is YAML), and an absent node is placed at its parent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { FieldPath } from '../../functions/manifests/field-path.ts';
import { jsonFieldLine } from '../../functions/manifests/json-field-line.ts';
import { nested } from '../support/hostile-documents.ts';

/** Pretty-printed as kubectl does, or minified. */
const indents = fc.constantFrom(4, undefined);

interface NodeLine {
  readonly path: FieldPath;
  readonly line: number;
}

/** Every node's path and line as the `yaml` package reads the text: a property at its key. */
function referenceLines(text: string): NodeLine[] {
  const lineCounter = new LineCounter();
  const lines: NodeLine[] = [];
  const walk = (node: unknown, path: FieldPath, offset: number): void => {
    lines.push({ path, line: lineCounter.linePos(offset).line });
    if (isMap(node)) {
      for (const { key, value } of node.items) {
        if (isScalar(key)) walk(value, [...path, String(key.value)], key.range?.[0] ?? 0);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => {
        if (isNode(item)) walk(item, [...path, index], item.range?.[0] ?? 0);
      });
    }
  };
  const { contents } = parseDocument(text, { lineCounter });
  walk(contents, [], isNode(contents) ? (contents.range?.[0] ?? 0) : 0);
  return lines;
}

describe('lines in JSON', () => {
  it('finds every node at the line the yaml package gives it, and an absent one at its parent', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), indents, (value, indent) => {
        // Prepare
        const text = ` \n${JSON.stringify(value, null, indent)}\n`;

        // Act and assess
        for (const { path, line } of referenceLines(text)) {
          expect(jsonFieldLine(text, path)).toBe(line);
          expect(jsonFieldLine(text, [...path, 'absent\u0000', 0])).toBe(line);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('stops past the nesting bound, however deep the text nests', () => {
    // Prepare
    const text = `{"kind": "Pod",\n"metadata": ${nested('[', ']', 100_000)}}`;
    const path = ['metadata', ...Array.from({ length: 100_000 }, () => 0)];

    // Act and assess
    expect(jsonFieldLine(text, path)).toBe(2);
  });
});
