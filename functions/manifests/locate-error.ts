/**
 * Puts errors raised while reading one object at their place in the file. Object readers (here
 * and in the Karpenter schemas) know only field paths; this adds the file and the field's line.
 */
import type { ManifestDocument } from './documents.ts';
import { ManifestError } from './manifest-error.ts';

/** A ManifestError without a file gets the document's file and its field's line; anything else is returned as is. */
export function locateError(error: unknown, document: ManifestDocument): unknown {
  if (!(error instanceof ManifestError) || error.location.file !== undefined) return error;
  return error.at(document.file, document.lineOf(error.field));
}

/** Reads the document's object with `parse`, locating any ManifestError it throws. */
export function parseLocated<T>(document: ManifestDocument, parse: (object: unknown) => T): T {
  try {
    return parse(document.object);
  } catch (error) {
    throw locateError(error, document);
  }
}
