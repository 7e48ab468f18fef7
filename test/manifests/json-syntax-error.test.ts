/**
 * JSON syntax faults, placed by jsonc-parser: on the line V8 names wherever V8 names an offset,
 * strictly (no comments, no trailing commas), and past any nesting without running out of stack.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readDocuments } from '../../functions/manifests/documents.ts';
import { nested } from '../support/hostile-documents.ts';
import { manifestErrorOf } from './manifest-fixtures.ts';

function v8Position(text: string): number | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const position = / at position (\d+)/.exec((error as Error).message)?.[1];
    return position === undefined ? undefined : Number(position);
  }
}

function lineAt(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

describe('JSON syntax errors', () => {
  it('puts a fault on the line V8 names, wherever V8 names an offset', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.nat(),
        fc.constantFrom('', ',', '}', ']', '{', '[', '"', 'x', '-', '\\', ':', '\n', '0', '.', '/'),
        (value, where, insert) => {
          // Prepare: the first character stays, so that the text is still read as JSON.
          const valid = JSON.stringify({ value }, null, 2);
          const at = 1 + (where % (valid.length - 1));
          const text = valid.slice(0, at) + insert + valid.slice(insert === '' ? at + 1 : at);
          const position = v8Position(text);
          fc.pre(position !== undefined);

          // Act
          const error = manifestErrorOf(() => readDocuments(text, 'broken.json'));

          // Assess
          const end = text.trimEnd().length;
          expect(error.location.line).toBe(lineAt(text, Math.min(position, end)));
          expect(error.message).toMatch(/^broken\.json:\d+: invalid JSON: .+ \(column \d+\)$/);
        },
      ),
      { numRuns: 500 },
    );
  });

  it.each([
    ['a comment', '{\n  "kind": "Pod", // a pod\n}\n', 2, 'comments are not allowed in JSON'],
    [
      'a trailing comma in an object',
      '{\n  "kind": "Pod",\n}\n',
      3,
      'expected double-quoted property name',
    ],
    ['a bad escape', '{\n  "kind": "P\\od"\n}\n', 2, 'bad escaped character'],
  ])('refuses %s, which jsonc-parser could accept or words otherwise', (_, text, line, reason) => {
    // Act
    const error = manifestErrorOf(() => readDocuments(text, 'broken.json'));

    // Assess
    expect(error.message).toMatch(
      new RegExp(`^broken\\.json:${line}: invalid JSON: ${reason} \\(column \\d+\\)$`),
    );
  });

  it('places a fault after 100,000 levels of nesting without running out of stack', () => {
    // Prepare
    const text = `{"kind": "Pod",\n"metadata": ${nested('[', ']', 100_000)}, oops}`;

    // Act
    const error = manifestErrorOf(() => readDocuments(text, 'deep.json'));

    // Assess
    expect(error.message).toMatch(
      /^deep\.json:2: metadata\[0\]\[0\].*…: nested deeper than 100 levels \(column \d+\)$/,
    );
  });
});
