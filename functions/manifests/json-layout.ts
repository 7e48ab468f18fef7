/**
 * Text spans of a JSON file's documents and list items, found when an error first asks: the
 * file is scanned once (json-scan.ts) and a line is counted only for the span asked about.
 */
import { type DocumentBounds, documentBounds, lineAt } from './json-scan.ts';
import { type Bounds, type Layout, LazySpan, WHOLE_DOCUMENT } from './lazy-span.ts';
import type { TextSpan } from './raw-document.ts';

export class JsonLayout implements Layout {
  private readonly text: string;
  private documents: DocumentBounds[] | undefined;

  constructor(text: string) {
    this.text = text;
  }

  /** The span of document `document`, or of item `item` of its `items` list. */
  span(document: number, item = WHOLE_DOCUMENT): TextSpan {
    return new LazySpan(this, document, item);
  }

  bounds(document: number, item: number): Bounds {
    this.documents ??= documentBounds(this.text);
    const found = this.documents[document];
    const bounds = item === WHOLE_DOCUMENT ? found : found?.items[item];
    // JSON.parse and the scan agree on every valid text, so the whole text is never used.
    return bounds ?? { start: 0, end: this.text.length };
  }

  lineAt(offset: number): number {
    return lineAt(this.text, offset);
  }
}
