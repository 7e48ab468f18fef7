/**
 * Text spans of a JSON file's documents and list items that are worked out only when read.
 * Reading a dump needs no positions; an error needs one or two. So the first span read scans the
 * file once (json-scan.ts), and a line is counted only for the span asked about.
 */
import { type Bounds, type DocumentBounds, documentBounds, lineAt } from './json-scan.ts';
import type { TextSpan } from './raw-document.ts';

/** Marks the span of a whole document rather than of one of its items. */
const WHOLE_DOCUMENT = -1;

export class JsonLayout {
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

class LazySpan implements TextSpan {
  private readonly layout: JsonLayout;
  private readonly document: number;
  private readonly item: number;

  constructor(layout: JsonLayout, document: number, item: number) {
    this.layout = layout;
    this.document = document;
    this.item = item;
  }

  get start(): number {
    return this.layout.bounds(this.document, this.item).start;
  }

  get end(): number {
    return this.layout.bounds(this.document, this.item).end;
  }

  get line(): number {
    return this.layout.lineAt(this.start);
  }
}
