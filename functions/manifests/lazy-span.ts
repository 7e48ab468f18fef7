/**
 * A document's or list item's place in its file, worked out only when read. Reading a dump needs
 * no positions; an error needs one or two, so a layout (json-layout.ts, yaml-layout.ts) finds
 * them on the first request and a line is counted only for the span asked about.
 */
import type { TextSpan } from './raw-document.ts';

/** Where a node's text starts and ends: offsets of its first character and just past its end. */
export interface Bounds {
  readonly start: number;
  readonly end: number;
}

export interface Layout {
  /** The bounds of document `document`, or of item `item` of its `items` list. */
  bounds(document: number, item: number): Bounds;
  lineAt(offset: number): number;
}

/** Marks the span of a whole document rather than of one of its items. */
export const WHOLE_DOCUMENT = -1;

export class LazySpan implements TextSpan {
  private readonly layout: Layout;
  private readonly document: number;
  private readonly item: number;

  constructor(layout: Layout, document: number, item = WHOLE_DOCUMENT) {
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
