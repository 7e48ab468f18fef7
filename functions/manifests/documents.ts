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
  mayShareObjects,
  newBoundsBudget,
} from './document-bounds.ts';
import type { FieldPath } from './field-path.ts';
import { readJsonDocuments } from './json-documents.ts';
import { ManifestError } from './manifest-error.ts';
import type { RawDocument } from './raw-document.ts';
import { readYamlDocuments } from './yaml-documents.ts';

export type ObjectFields = Readonly<Record<string, unknown>>;

/** 1-based line of a field of an object (`[]` for the object), or of its nearest present ancestor. */
type LineOf = (field: FieldPath) => number;

export interface ManifestDocument {
  readonly object: ObjectFields;
  readonly file: string;
  /** 1-based line of the object's first field. */
  readonly line: number;
  readonly apiVersion: string;
  readonly kind: string;
  /** The line of a field, for error messages: it reads the file again. */
  readonly lineOf: LineOf;
}

interface Origin {
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
  const origin = { file, budget };
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

/** List items nest two below their document: the list, its `items`, the item. */
const ITEM_DEPTH = 3;

function addObjects(objects: ManifestDocument[], document: RawDocument, origin: Origin): void {
  const { value, lineOf } = document;
  if (!isList(value)) {
    checkObject(value, lineOf, origin, 1);
    objects.push(toManifestDocument(value, lineOf, origin));
    return;
  }
  const { items, ...rest } = value;
  checkObject(rest, lineOf, origin, 1);
  const head = toManifestDocument(value, lineOf, origin);
  // A typed list (`PodList`) from the API server may leave kind and apiVersion off its items.
  const defaults =
    head.kind === 'List'
      ? undefined
      : { kind: head.kind.slice(0, -4), apiVersion: head.apiVersion };
  items.forEach((item, index) => {
    const itemLineOf: LineOf = (field) => lineOf(['items', index, ...field]);
    checkObject(item, itemLineOf, origin, ITEM_DEPTH);
    objects.push(toManifestDocument(item, itemLineOf, origin, defaults));
  });
}

/** Holds one object to the file's bounds, naming the file, line and field of what breaks them. */
function checkObject(value: unknown, lineOf: LineOf, origin: Origin, depth: number): void {
  try {
    checkBounds(value, origin.budget, depth);
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    throw error.at(origin.file, lineOf(error.field));
  }
}

function toManifestDocument(
  value: unknown,
  lineOf: LineOf,
  origin: Origin,
  defaults?: { readonly kind: string; readonly apiVersion: string },
): ManifestDocument {
  if (!isObjectFields(value)) {
    const found = Array.isArray(value) ? 'a list' : `the scalar ${JSON.stringify(value)}`;
    const where = { file: origin.file, line: lineOf([]) };
    throw new ManifestError(`expected a Kubernetes object (a mapping), got ${found}`, where);
  }
  return {
    object: value,
    file: origin.file,
    apiVersion: typeField(value, 'apiVersion', defaults?.apiVersion, lineOf, origin),
    kind: typeField(value, 'kind', defaults?.kind, lineOf, origin),
    // Found only when read: reading the file gives no positions (see RawDocument).
    get line() {
      return lineOf([]);
    },
    lineOf,
  };
}

function typeField(
  object: ObjectFields,
  key: 'apiVersion' | 'kind',
  fallback: string | undefined,
  lineOf: LineOf,
  origin: Origin,
): string {
  const value = object[key] ?? fallback;
  if (typeof value === 'string' && value !== '') return value;
  const detail =
    value === undefined ? 'is required' : `expected a string, got ${JSON.stringify(value)}`;
  throw new ManifestError(detail, { file: origin.file, line: lineOf([]), field: [key] });
}
