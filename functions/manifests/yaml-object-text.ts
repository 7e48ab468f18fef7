/**
 * Where the text of a YAML document lies, or that of one item of its `items` list (`kind: List`,
 * `PodList` …), so that an error's field can be found in it with positions (yaml-field-line.ts).
 * Reading a whole dump with positions would take seconds a megabyte; js-yaml, which read the
 * values, reads the text once more with its listener, which tells where each node opens and
 * closes, and stops when the object closes.
 */
import { loadAll, type State } from 'js-yaml';
import { YAML_LOAD_OPTIONS } from './yaml-load-options.ts';

export interface ObjectText {
  /** Offset of the object's first character. */
  readonly start: number;
  /** Offset just past the object's last line. */
  readonly end: number;
  /** 1-based line of its first character. */
  readonly line: number;
}

/** Thrown by the listener to stop reading once the object has closed. */
const STOP = Symbol('stop');

/** js-yaml's nesting: the document root is 1, its keys and values 2, the entries of `items` 3. */
const ROOT = 1;
const ROOT_ENTRY = 2;
const ITEM = 3;

/** The text of document `document` (counting empty ones), or of item `item` of its `items`. */
export function objectText(text: string, document: number, item?: number): ObjectText | undefined {
  const finder = new ObjectFinder(document, item);
  try {
    loadAll(text, undefined, { ...YAML_LOAD_OPTIONS, listener: finder.listen });
  } catch (error) {
    if (error !== STOP) throw error;
  }
  return finder.found;
}

class ObjectFinder {
  found: ObjectText | undefined;
  private depth = 0;
  private documents = -1;
  /** The root's keys and values so far: they alternate, keys first. */
  private rootEntries = 0;
  private lastKey: unknown;
  private inItems = false;
  private items = -1;
  private start: { readonly start: number; readonly line: number } | undefined;

  constructor(
    private readonly document: number,
    private readonly item: number | undefined,
  ) {}

  readonly listen = (event: 'open' | 'close', state: State): void => {
    if (event === 'open') this.open(state);
    else this.close(state);
  };

  private open(state: State): void {
    this.depth++;
    if (this.depth === ROOT) this.documents++;
    if (this.documents !== this.document) return;
    if (this.depth === ROOT_ENTRY) {
      this.inItems = this.rootEntries++ % 2 === 1 && this.lastKey === 'items';
    }
    const wanted = this.item === undefined ? this.depth === ROOT : this.isWantedItem();
    if (wanted) this.start = { start: state.position, line: state.line + 1 };
  }

  private isWantedItem(): boolean {
    return this.depth === ITEM && this.inItems && ++this.items === this.item;
  }

  private close(state: State): void {
    if (this.documents === this.document) {
      const objectDepth = this.item === undefined ? ROOT : ITEM;
      if (this.start !== undefined && this.depth === objectDepth) {
        this.found = { ...this.start, end: state.position };
        throw STOP;
      }
      // The whole document was read without finding the item.
      if (this.depth === ROOT) throw STOP;
      if (this.depth === ROOT_ENTRY && this.rootEntries % 2 === 1) this.lastKey = state.result;
    }
    this.depth--;
  }
}
