/**
 * Kubernetes objects out of YAML text, as `kubectl get -o yaml` writes it: single documents,
 * `---` separated documents, and lists (`kind: List`, `PodList` …) whose items each become an
 * object with its own line. Empty documents are skipped.
 */
import { readBlockYaml } from './block-yaml.ts';
import { ManifestError } from './manifest-error.ts';
import type { RawDocument, TextSpan } from './raw-document.ts';
import { readYamlStream } from './yaml-stream.ts';

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

/** The objects in one file, in order. Throws ManifestError (file and line) for unreadable YAML. */
export function readDocuments(text: string, file: string): ManifestDocument[] {
  // The fast reader covers what kubectl writes; anything else gets the full parser.
  const documents = readBlockYaml(text) ?? readYamlStream(text, file);
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
  const where = { file: origin.file, line: span.line };
  if (!isObjectFields(value)) {
    const found = Array.isArray(value) ? 'a list' : `the scalar ${JSON.stringify(value)}`;
    throw new ManifestError(`expected a Kubernetes object (a mapping), got ${found}`, where);
  }
  return {
    object: value,
    file: origin.file,
    line: span.line,
    apiVersion: typeField(value, 'apiVersion', defaults?.apiVersion, where),
    kind: typeField(value, 'kind', defaults?.kind, where),
    source: { text: origin.text, start: span.start, end: span.end },
  };
}

function typeField(
  object: ObjectFields,
  key: 'apiVersion' | 'kind',
  fallback: string | undefined,
  where: { readonly file: string; readonly line: number },
): string {
  const value = object[key] ?? fallback;
  if (typeof value === 'string' && value !== '') return value;
  const detail =
    value === undefined ? 'is required' : `expected a string, got ${JSON.stringify(value)}`;
  throw new ManifestError(detail, { ...where, path: key });
}
