/** The YAML and JSON readers' common output: a document's value, and the lines of its fields. */
import type { FieldPath } from './field-path.ts';

export interface RawDocument {
  readonly value: unknown;
  /**
   * 1-based line of the field at `field` (from the document's root; `[]` for the document
   * itself), or of its nearest present ancestor. It reads the text again, so only errors ask.
   */
  lineOf(field: FieldPath): number;
}
