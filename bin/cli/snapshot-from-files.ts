/** Reads `kubectl get -o yaml` (or `-o json`) files into the snapshot a what-if plan takes. */
import { readFileSync } from 'node:fs';
import type { ClusterSnapshot } from '../../functions/domain/cluster-snapshot.ts';
import { ignoredKindsWarning } from '../../functions/manifests/ignored-kinds.ts';
import { loadCluster, type ManifestFile } from '../../functions/manifests/load-cluster.ts';
import { ManifestError } from '../../functions/manifests/manifest-error.ts';
import { manifestPaths } from './manifest-paths.ts';

/** A file's text; `-` is standard input. Throws ManifestError naming a file that cannot be read. */
export function readManifest(file: string): ManifestFile {
  try {
    return { file, text: readFileSync(file === '-' ? 0 : file, 'utf8') };
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'no such file'
        : (error as Error).message;
    throw new ManifestError(reason, { file });
  }
}

/** The files and directories of `-f` (their subdirectories too when `recursive`), read. */
export function readManifests(paths: readonly string[], recursive = false): ManifestFile[] {
  return manifestPaths(paths, recursive).map(readManifest);
}

/** Everything `plan` reads, and the PodDisruptionBudgets `disruption` reads besides. */
export function snapshotFromFiles(paths: readonly string[], recursive = false): ClusterSnapshot {
  return snapshotFromManifests(readManifests(paths, recursive));
}

/** The same, from files already read (standard input can be read only once). */
export function snapshotFromManifests(manifests: readonly ManifestFile[]): ClusterSnapshot {
  const { ignoredKinds, ...snapshot } = loadCluster(manifests);
  const ignored = ignoredKindsWarning(ignoredKinds);
  if (ignored !== undefined) process.stderr.write(`warning: ${ignored}\n`);
  return snapshot;
}
