/**
 * A document that cannot be read: names the file, the line and the field, so the user can fix
 * it without guessing. `path` uses the Kubernetes field notation (`spec.template.spec.requirements[2].operator`).
 */
import { type FieldPath, formatFieldPath } from './field-path.ts';

export interface ManifestLocation {
  readonly file?: string;
  readonly line?: number;
  readonly path?: string;
}

/**
 * Where a reader places an error: the field as segments, and the file and line when it knows
 * them. A `path` is given only with the field, where it is shown otherwise than formatted (cut
 * short): the line is found from the segments, never from the text.
 */
export type ManifestPlace = Omit<ManifestLocation, 'path'> &
  (
    | { readonly field?: FieldPath; readonly path?: undefined }
    | { readonly field: FieldPath; readonly path: string }
  );

export class ManifestError extends Error {
  override readonly name = 'ManifestError';
  readonly code = 'InvalidManifest';
  readonly location: ManifestLocation;
  /** The field's segments, kept so that its line is found without reading `path` back. */
  readonly field: FieldPath;
  readonly detail: string;

  constructor(detail: string, place: ManifestPlace = {}, options?: ErrorOptions) {
    const { field = [], path = formatFieldPath(field), ...where } = place;
    const location = path === '' ? where : { ...where, path };
    super(formatLocation(location, detail), options);
    this.detail = detail;
    this.field = field;
    this.location = location;
  }

  /** The same error placed in a file at a line (the field is kept). */
  at(file: string, line?: number): ManifestError {
    const { path } = this.location;
    const where = { file, line: line ?? this.location.line, field: this.field };
    const place = path === undefined ? where : { ...where, path };
    return new ManifestError(this.detail, place, { cause: this });
  }
}

function formatLocation(location: ManifestLocation, detail: string): string {
  const where = [location.file, location.line].filter((part) => part !== undefined).join(':');
  const field = location.path ? `${location.path}: ` : '';
  return where ? `${where}: ${field}${detail}` : `${field}${detail}`;
}
