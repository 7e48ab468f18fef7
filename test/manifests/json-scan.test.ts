import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentBounds } from '../../functions/manifests/json-scan.ts';

/** Objects with an `items` list among other members, as lists and look-alikes have. */
const listLike = fc.record({
  kind: fc.string(),
  items: fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 5 }),
  other: fc.jsonValue({ maxDepth: 2 }),
});

/** Pretty-printed as kubectl does, or minified. */
const indents = fc.constantFrom(4, undefined);

describe('scanning JSON for document and item bounds', () => {
  it('finds exactly the documents and items JSON.parse reads', () => {
    fc.assert(
      fc.property(
        fc.oneof(listLike, fc.array(fc.oneof(listLike, fc.jsonValue({ maxDepth: 2 })))),
        indents,
        (value, indent) => {
          // Prepare
          const text = ` \n${JSON.stringify(value, null, indent)}\n`;
          // Read back, as JSON has no -0 and the bounds must give what JSON.parse gives.
          const parsed: unknown = JSON.parse(text);
          const documents: unknown[] = Array.isArray(parsed) ? parsed : [parsed];

          // Act
          const bounds = documentBounds(text);

          // Assess
          const slice = (b: { start: number; end: number }) =>
            JSON.parse(text.slice(b.start, b.end));
          expect(bounds.map(slice)).toEqual(documents);
          bounds.forEach((document, index) => {
            expect(document.items.map(slice)).toEqual(itemsOf(documents[index]));
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

function itemsOf(document: unknown): unknown[] {
  const isObject = typeof document === 'object' && document !== null && !Array.isArray(document);
  const items = isObject ? (document as { items?: unknown }).items : undefined;
  return Array.isArray(items) ? items : [];
}
