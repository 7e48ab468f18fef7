import { ManifestError } from '../../../functions/manifests/manifest-error.ts';

/** Runs `act` and returns the ManifestError it throws; fails the test if it throws nothing else. */
export function catchManifestError(act: () => unknown): ManifestError {
  try {
    act();
  } catch (error) {
    if (error instanceof ManifestError) return error;
    throw error;
  }
  throw new Error('expected a ManifestError, but the document was accepted');
}
