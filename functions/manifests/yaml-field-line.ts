/**
 * The line of a field in a YAML file, for error messages. js-yaml reads the values without
 * positions; when an error needs a line, the object's text is found (yaml-object-text.ts) and
 * the `yaml` package reads just that text with a LineCounter, where the field is followed.
 */
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { FieldPath } from './field-path.ts';
import { type ObjectText, objectText } from './yaml-object-text.ts';

/** Past this, reading an object with positions costs more than its field's line is worth. */
const MAX_LOCATED_CHARACTERS = 1024 * 1024;

interface Step {
  readonly node: unknown;
  /** Where the step's text starts: the key of a mapping entry, or the sequence item. */
  readonly offset: number;
}

/**
 * 1-based line of the field at `field` in document `document` of the text (an entry of a
 * list's `items` is read on its own), or of its nearest present ancestor.
 */
export function yamlFieldLine(text: string, document: number, field: FieldPath): number {
  const [first, index, ...inItem] = field;
  const item =
    first === 'items' && typeof index === 'number' ? objectText(text, document, index) : undefined;
  const object = item ?? objectText(text, document);
  if (object === undefined) return 1;
  if (object.end - object.start > MAX_LOCATED_CHARACTERS) return object.line;
  return lineIn(text, object, item === undefined ? field : inItem);
}

function lineIn(text: string, object: ObjectText, field: FieldPath): number {
  const { start, end } = object;
  const lineCounter = new LineCounter();
  const parsed = parseDocument(indentation(text, start) + text.slice(start, end), { lineCounter });
  let step: Step = { node: parsed.contents, offset: startOf(parsed.contents) };
  for (const segment of field) {
    const next = childOf(step.node, segment);
    if (next === undefined) break;
    step = next;
  }
  return object.line + lineCounter.linePos(step.offset).line - 1;
}

/**
 * The object's first line indented as in the file keeps a block mapping's indentation
 * consistent. A flow collection needs none, and on a long line its column may be huge.
 */
function indentation(text: string, start: number): string {
  if (text[start] === '{' || text[start] === '[') return '';
  return ' '.repeat(start - (text.lastIndexOf('\n', start - 1) + 1));
}

function childOf(node: unknown, segment: string | number): Step | undefined {
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment];
    return isNode(item) ? { node: item, offset: startOf(item) } : undefined;
  }
  if (!isMap(node)) return undefined;
  const pair = node.items.find(
    (entry) => isScalar(entry.key) && String(entry.key.value) === String(segment),
  );
  return pair === undefined ? undefined : { node: pair.value, offset: startOf(pair.key) };
}

function startOf(node: unknown): number {
  return isNode(node) ? (node.range?.[0] ?? 0) : 0;
}
