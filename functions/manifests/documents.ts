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
import { isObjectFields, type ObjectFields } from './object-fields.ts';
import type { RawDocument } from './raw-document.ts';
import { readYamlDocuments } from './yaml-documents.ts';

export interface ManifestDocument {
  readonly object: ObjectFields;
  readonly file: string;
  /** 1-based line of the object's first field. */
  readonly line: number;
  readonly apiVersion: string;
  readonly kind: string;
  /**
   * 1-based line of a field of the object (`[]` for the object), or of its nearest present
   * ancestor, for error messages: it reads the file again.
   */
  lineOf(field: FieldPath): number;
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

/**
 * Where an object lies: its document, and for an item of a list its index in `items`. Kept as
 * data: a closure an item made reading a 20,000-pod JSON dump a fifth slower.
 */
class ObjectPlace {
  constructor(
    private readonly document: RawDocument,
    private readonly item?: number,
  ) {}

  lineOf(field: FieldPath): number {
    const { item } = this;
    return this.document.lineOf(item === undefined ? field : ['items', item, ...field]);
  }
}

/** An object as read; its lines are found only when asked, as reading gives no positions. */
class PlacedDocument implements ManifestDocument {
  constructor(
    readonly object: ObjectFields,
    readonly file: string,
    readonly apiVersion: string,
    readonly kind: string,
    private readonly place: ObjectPlace,
  ) {}

  get line(): number {
    return this.place.lineOf([]);
  }

  lineOf(field: FieldPath): number {
    return this.place.lineOf(field);
  }
}

function addObjects(objects: ManifestDocument[], document: RawDocument, origin: Origin): void {
  const { value } = document;
  const place = new ObjectPlace(document);
  if (!isList(value)) {
    checkObject(value, place, origin, 1);
    objects.push(toManifestDocument(value, place, origin));
    return;
  }
  const { items, ...rest } = value;
  checkObject(rest, place, origin, 1);
  const head = toManifestDocument(value, place, origin);
  // A typed list (`PodList`) from the API server may leave kind and apiVersion off its items.
  const defaults =
    head.kind === 'List'
      ? undefined
      : { kind: head.kind.slice(0, -4), apiVersion: head.apiVersion };
  items.forEach((item, index) => {
    const itemPlace = new ObjectPlace(document, index);
    checkObject(item, itemPlace, origin, ITEM_DEPTH);
    objects.push(toManifestDocument(item, itemPlace, origin, defaults));
  });
}

/** Holds one object to the file's bounds, naming the file, line and field of what breaks them. */
function checkObject(value: unknown, place: ObjectPlace, origin: Origin, depth: number): void {
  try {
    checkBounds(value, origin.budget, depth);
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    throw error.at(origin.file, place.lineOf(error.field));
  }
}

function toManifestDocument(
  value: unknown,
  place: ObjectPlace,
  origin: Origin,
  defaults?: { readonly kind: string; readonly apiVersion: string },
): ManifestDocument {
  if (!isObjectFields(value)) {
    const found = Array.isArray(value) ? 'a list' : `the scalar ${JSON.stringify(value)}`;
    const where = { file: origin.file, line: place.lineOf([]) };
    throw new ManifestError(`expected a Kubernetes object (a mapping), got ${found}`, where);
  }
  const apiVersion = typeField(value, 'apiVersion', defaults?.apiVersion, place, origin);
  const kind = typeField(value, 'kind', defaults?.kind, place, origin);
  return new PlacedDocument(value, origin.file, apiVersion, kind, place);
}

function typeField(
  object: ObjectFields,
  key: 'apiVersion' | 'kind',
  fallback: string | undefined,
  place: ObjectPlace,
  origin: Origin,
): string {
  const value = object[key] ?? fallback;
  if (typeof value === 'string' && value !== '') return value;
  const detail =
    value === undefined ? 'is required' : `expected a string, got ${JSON.stringify(value)}`;
  throw new ManifestError(detail, { file: origin.file, line: place.lineOf([]), field: [key] });
}
