/**
 * A document that cannot be read: names the file, the line and the field, so the user can fix
 * it without guessing. `path` uses the Kubernetes field notation (`spec.template.spec.requirements[2].operator`).
 */
export interface ManifestLocation {
  readonly file?: string;
  readonly line?: number;
  readonly path?: string;
}

export class ManifestError extends Error {
  override readonly name = 'ManifestError';
  readonly code = 'InvalidManifest';
  readonly location: ManifestLocation;
  readonly detail: string;

  constructor(detail: string, location: ManifestLocation = {}, options?: ErrorOptions) {
    super(formatLocation(location, detail), options);
    this.detail = detail;
    this.location = location;
  }

  /** The same error placed in a file at a line (paths are kept). */
  at(file: string, line?: number): ManifestError {
    return new ManifestError(
      this.detail,
      { ...this.location, file, line: line ?? this.location.line },
      { cause: this },
    );
  }
}

function formatLocation(location: ManifestLocation, detail: string): string {
  const where = [location.file, location.line].filter((part) => part !== undefined).join(':');
  const field = location.path ? `${location.path}: ` : '';
  return where ? `${where}: ${field}${detail}` : `${field}${detail}`;
}
