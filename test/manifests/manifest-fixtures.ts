/**
 * Helpers for manifest tests: objects from YAML text, the ManifestError an action throws, and a
 * JSON pod list.
 */
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

/**
 * A pod list as `kubectl get pods -o json` pretty-prints it (four spaces), its items without kind
 * or apiVersion, the first with a malformed memory request; tests refer to its lines.
 */
export const POD_LIST_JSON = `{
    "apiVersion": "v1",
    "items": [
        {
            "metadata": {
                "name": "a",
                "labels": {
                    "app.kubernetes.io/name": "web"
                }
            },
            "spec": {
                "containers": [
                    {
                        "name": "app",
                        "resources": {
                            "requests": {
                                "memory": "128 MB"
                            }
                        }
                    }
                ]
            }
        },
        {
            "metadata": {
                "name": "b"
            }
        }
    ],
    "kind": "PodList",
    "metadata": {
        "resourceVersion": ""
    }
}
`;
