/**
 * Kubernetes objects out of YAML text, as `kubectl get -o yaml` writes it: single documents,
 * `---` separated documents, and lists (`kind: List`, `PodList` …) whose items each become an
 * object with its own line. Empty documents are skipped. JSON (`kubectl get -o json`) gives the
 * same objects: one object, a list, or an array of objects, each element a document.
 */
import { readJsonDocuments } from './json-documents.ts';
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
}

/** The objects in one file, in order. Throws ManifestError (file and line) for unreadable YAML or JSON. */
export function readDocuments(text: string, file: string): ManifestDocument[] {
  const documents = readJsonDocuments(text, file) ?? readYamlDocuments(text, file);
  const objects: ManifestDocument[] = [];
  const origin = { text, file };
  for (const document of documents) {
    if (document.value !== null) addObjects(objects, document, origin);
  }
  return objects;
}

export function isObjectFields(value: unknown): value is ObjectFields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function addObjects(objects: ManifestDocument[], document: RawDocument, origin: Origin): void {
  const head = toManifestDocument(document.value, document.span, origin);
  const items = head.object.items;
  if (!head.kind.endsWith('List') || !Array.isArray(items)) {
    objects.push(head);
    return;
  }
  // A typed list (`PodList`) from the API server may leave kind and apiVersion off its items.
  const defaults =
    head.kind === 'List'
      ? undefined
      : { kind: head.kind.slice(0, -4), apiVersion: head.apiVersion };
  items.forEach((item, index) => {
    objects.push(
      toManifestDocument(item, document.items[index] ?? document.span, origin, defaults),
    );
  });
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
  throw new ManifestError(detail, { file: origin.file, line: span.line, path: key });
}
