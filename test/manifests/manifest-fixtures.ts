/** Helpers for manifest tests: objects from YAML text, and the ManifestError an action throws. */
import { readDocuments } from '../../functions/manifests/documents.ts';
import { ManifestError } from '../../functions/manifests/manifest-error.ts';

/** The first object of the YAML text, as the loader hands it to the mappers. */
export function objectOf(text: string): unknown {
  const [document] = readDocuments(text, 'test.yaml');
  if (document === undefined) throw new Error('the text holds no object');
  return document.object;
}

export function manifestErrorOf(action: () => unknown): ManifestError {
  try {
    action();
  } catch (error) {
    if (error instanceof ManifestError) return error;
    throw error;
  }
  throw new Error('expected a ManifestError, nothing was thrown');
}
