/** `plan --limits FILE`: one ClusterLimits document, checked as the API checks it. */
import type { ClusterLimits } from '../../functions/domain/limits/cluster-limits.ts';
import { readDocuments } from '../../functions/manifests/documents.ts';
import { parseLocated } from '../../functions/manifests/locate-error.ts';
import { ManifestError } from '../../functions/manifests/manifest-error.ts';
import { parseClusterLimits } from '../../functions/manifests/nodesmith/cluster-limits.ts';
import { readManifest } from './snapshot-from-files.ts';

export function clusterLimitsFromFile(file: string): ClusterLimits {
  const { text } = readManifest(file);
  const [document, ...more] = readDocuments(text, file);
  if (document === undefined || more.length > 0) {
    throw new ManifestError(
      `holds ${more.length + (document === undefined ? 0 : 1)} documents; a limits file holds one ClusterLimits`,
      { file },
    );
  }
  return parseLocated(document, parseClusterLimits);
}
