/**
 * Kubernetes objects out of YAML text, as `kubectl get -o yaml` writes it: single documents,
 * `---` separated documents, and lists (`kind: List`, `PodList` …) whose items each become an
 * object with its own line. Empty documents are skipped. JSON (`kubectl get -o json`) gives the
 * same objects: one object, a list, or an array of objects, each element a document.
 */
import {
  type BoundsBudget,
  checkBounds,
  checkSize,
  DOCUMENT_BOUNDS,
  mayShareObjects,
  newBoundsBudget,
  tooDeep,
} from './document-bounds.ts';
import { lineOf } from './field-line.ts';
import { readJsonDocuments } from './json-documents.ts';
import { openingAtLevel } from './json-scan.ts';
import { ManifestError } from './manifest-error.ts';
import type { RawDocument, TextSpan } from './raw-document.ts';
import { readYamlDocuments } from './yaml-documents.ts';

export type ObjectFields = Readonly<Record<string, unknown>>;

/** Where an object's text lies, so the line of a nested field can be found when an error needs it. */
export interface SourceRange {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

export interface ManifestDocument {
  readonly object: ObjectFields;
  readonly file: string;
  /** 1-based line of the object's first field. */
  readonly line: number;
  readonly apiVersion: string;
  readonly kind: string;
  readonly source: SourceRange;
}

interface Origin {
  readonly text: string;
  readonly file: string;
  readonly budget: BoundsBudget;
}

/**
 * The objects in one file, in order. Throws ManifestError (file and line) for unreadable YAML or
 * JSON, and for a file beyond the bounds of document-bounds.ts (naming the field).
 */
export function readDocuments(text: string, file: string): ManifestDocument[] {
  checkSize(text, file);
  const json = readJsonDocuments(text, file);
  const documents = json ?? readYamlDocuments(text, file);
  const objects: ManifestDocument[] = [];
  const budget = newBoundsBudget(json === undefined && mayShareObjects(text));
  const origin = { text, file, budget };
  for (const document of documents) {
    if (document.value !== null) addObjects(objects, document, origin);
  }
  return objects;
}

export function isObjectFields(value: unknown): value is ObjectFields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isList(value: unknown): value is ObjectFields & { readonly items: unknown[] } {
  return (
    isObjectFields(value) &&
    Array.isArray(value.items) &&
    typeof value.kind === 'string' &&
    value.kind.endsWith('List')
  );
}

const MAX_LOCATED_CHARACTERS = 1024 * 1024;

/** List items nest two below their document: the list, its `items`, the item. */
const ITEM_DEPTH = 3;

function addObjects(objects: ManifestDocument[], document: RawDocument, origin: Origin): void {
  const { value, span } = document;
  if (!isList(value)) {
    checkObject(value, span, origin, 1);
    objects.push(toManifestDocument(value, span, origin));
    return;
  }
  const { items, ...rest } = value;
  checkObject(rest, span, origin, 1);
  const head = toManifestDocument(value, span, origin);
  // A typed list (`PodList`) from the API server may leave kind and apiVersion off its items.
  const defaults =
    head.kind === 'List'
      ? undefined
      : { kind: head.kind.slice(0, -4), apiVersion: head.apiVersion };
  items.forEach((item, index) => {
    const itemSpan = document.items[index] ?? span;
    checkObject(item, itemSpan, origin, ITEM_DEPTH);
    objects.push(toManifestDocument(item, itemSpan, origin, defaults));
  });
}

/** Holds one object to the file's bounds, naming the file, line and field of what breaks them. */
function checkObject(value: unknown, span: TextSpan, origin: Origin, depth: number): void {
  try {
    checkBounds(value, origin.budget, depth);
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    const { field } = error;
    const source = sourceBefore(error, span, origin.text, depth);
    // The field's line is found by reading the object again with positions; past a megabyte
    // that costs more than the line is worth, and the object's own line is given instead.
    const small = source.end - source.start <= MAX_LOCATED_CHARACTERS;
    const line = field.length > 0 && small ? lineOf({ line: span.line, source }, field) : span.line;
    throw error.at(origin.file, line);
  }
}

/**
 * The object's text, or for one nested too deep its text up to where it went too deep: read
 * again whole, the nesting would take the position reader most of a second to give up on.
 */
function sourceBefore(error: ManifestError, span: TextSpan, text: string, depth: number) {
  const { start, end } = span;
  if (error.detail !== tooDeep()) return { text, start, end };
  return {
    text,
    start,
    end: openingAtLevel(text, start, end, DOCUMENT_BOUNDS.maxDepth - depth + 2),
  };
}

function toManifestDocument(
  value: unknown,
  span: TextSpan,
  origin: Origin,
  defaults?: { readonly kind: string; readonly apiVersion: string },
): ManifestDocument {
  if (!isObjectFields(value)) {
    const found = Array.isArray(value) ? 'a list' : `the scalar ${JSON.stringify(value)}`;
    const where = { file: origin.file, line: span.line };
    throw new ManifestError(`expected a Kubernetes object (a mapping), got ${found}`, where);
  }
  return {
    object: value,
    file: origin.file,
    apiVersion: typeField(value, 'apiVersion', defaults?.apiVersion, span, origin),
    kind: typeField(value, 'kind', defaults?.kind, span, origin),
    // Read through the span when asked: a JSON file's spans are worked out only then.
    get line() {
      return span.line;
    },
    get source() {
      return { text: origin.text, start: span.start, end: span.end };
    },
  };
}

function typeField(
  object: ObjectFields,
  key: 'apiVersion' | 'kind',
  fallback: string | undefined,
  span: TextSpan,
  origin: Origin,
): string {
  const value = object[key] ?? fallback;
  if (typeof value === 'string' && value !== '') return value;
  const detail =
    value === undefined ? 'is required' : `expected a string, got ${JSON.stringify(value)}`;
  throw new ManifestError(detail, { file: origin.file, line: span.line, field: [key] });
}
