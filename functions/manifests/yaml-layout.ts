/**
 * Text spans of a YAML file's documents and of their `items` entries, found when an error first
 * asks. Loading records no positions (that is what keeps a 20,000-pod dump fast); the first span
 * read loads the text once more with js-yaml's listener, which reports where every node opens and
 * closes. Only the document roots and the entries of a root `items` sequence are kept.
 */
import { CORE_SCHEMA, loadAll, type State } from 'js-yaml';
import { lineAt } from './json-scan.ts';
import { type Bounds, type Layout, LazySpan, WHOLE_DOCUMENT } from './lazy-span.ts';
import type { TextSpan } from './raw-document.ts';

interface DocumentBounds extends Bounds {
  readonly items: readonly Bounds[];
}

/** Lines after a node that belong to no node: blank, comments, document markers. */
const TRAILING = /^(?:\s*(?:#.*)?|---.*|\.\.\..*)$/;

/** Pulls an end offset back over the lines after a node's last content line. */
function trimEnd(text: string, start: number, end: number): number {
  let cut = end;
  while (cut > start) {
    const lineStart = text.lastIndexOf('\n', cut - 2) + 1;
    if (lineStart <= start || !TRAILING.test(text.slice(lineStart, cut).trimEnd())) break;
    cut = lineStart;
  }
  return cut;
}

/** Follows the listener's open/close events; depth 1 is a document root, 3 an `items` entry. */
class Recorder {
  readonly documents: DocumentBounds[] = [];
  private depth = 0;
  private rootStart = 0;
  private items: number[] = [];
  private itemsEnd = -1;
  private keyIsItems = false;
  private inItems = false;
  private depthTwoNodes = 0;

  constructor(private readonly text: string) {}

  readonly listen = (event: 'open' | 'close', state: State): void => {
    if (event === 'open') this.open(state.position);
    else this.close(state.position, state.result);
  };

  private open(position: number): void {
    this.depth++;
    if (this.depth === 1) this.startDocument(position);
    else if (this.depth === 2) {
      // Keys and values of the root mapping alternate; the value after `items` is the list.
      this.inItems = this.keyIsItems && this.depthTwoNodes % 2 === 1;
      this.depthTwoNodes++;
    } else if (this.depth === 3 && this.inItems) this.items.push(position);
  }

  private close(position: number, result: unknown): void {
    if (this.depth === 2) {
      if (this.inItems) this.itemsEnd = position;
      this.keyIsItems = this.depthTwoNodes % 2 === 1 && result === 'items';
      this.inItems = false;
    } else if (this.depth === 1) this.endDocument(position);
    this.depth--;
  }

  private startDocument(position: number): void {
    this.rootStart = position;
    this.items = [];
    this.itemsEnd = -1;
    this.keyIsItems = false;
    this.depthTwoNodes = 0;
  }

  private endDocument(position: number): void {
    const starts = this.items;
    const items = starts.map((start, index) => {
      const next = starts[index + 1];
      const end = next === undefined ? this.itemsEnd : this.text.lastIndexOf('\n', next - 1) + 1;
      return { start, end: trimEnd(this.text, start, end) };
    });
    const end = trimEnd(this.text, this.rootStart, position);
    this.documents.push({ start: this.rootStart, end, items });
  }
}

export class YamlLayout implements Layout {
  private readonly text: string;
  private documents: readonly DocumentBounds[] | undefined;

  constructor(text: string) {
    this.text = text;
  }

  /** The span of document `document` (counting empty ones), or of item `item` of its `items`. */
  span(document: number, item = WHOLE_DOCUMENT): TextSpan {
    return new LazySpan(this, document, item);
  }

  bounds(document: number, item: number): Bounds {
    this.documents ??= this.record();
    const found = this.documents[document];
    const bounds = item === WHOLE_DOCUMENT ? found : (found?.items[item] ?? found);
    return bounds ?? { start: 0, end: this.text.length };
  }

  lineAt(offset: number): number {
    return lineAt(this.text, offset);
  }

  private record(): readonly DocumentBounds[] {
    const recorder = new Recorder(this.text);
    loadAll(this.text, undefined, { schema: CORE_SCHEMA, listener: recorder.listen });
    return recorder.documents;
  }
}
