/**
 * The pods (and StatefulSet claims) the workloads in a set of files stand for, as their
 * controllers would create them in a cluster holding everything else in the files. What the files
 * already hold counts: pods a workload owns count against its replicas, existing claims are not
 * made again, and a ReplicaSet whose Deployment is in the files is that Deployment's.
 */
import type { ManifestDocument } from '../documents.ts';
import { locateError } from '../locate-error.ts';
import { type ClusterIndex, clusterIndex } from './cluster-index.ts';
import { cronJobPods, jobPods } from './job-pods.ts';
import { countingSuffixes, type NameSuffix } from './name-suffix.ts';
import { controllerOf } from './owner-reference.ts';
import { nameOf, namespaceOf, type PlainObject } from './plain-object.ts';
import { deploymentPods, replicaSetPods } from './replica-set-pods.ts';
import { statefulSetPods } from './stateful-set-pods.ts';
import type { WorkloadObjects } from './workload-objects.ts';

export interface ExpandedWorkload extends WorkloadObjects {
  readonly document: ManifestDocument;
}

type Expand = (workload: PlainObject, index: ClusterIndex, suffix: NameSuffix) => WorkloadObjects;

/** Keyed by `apiVersion/kind`. */
const WORKLOADS: ReadonlyMap<string, Expand> = new Map<string, Expand>([
  ['apps/v1/Deployment', deploymentPods],
  ['apps/v1/ReplicaSet', replicaSetPods],
  ['apps/v1/StatefulSet', (workload, index) => statefulSetPods(workload, index)],
  ['batch/v1/Job', jobPods],
  ['batch/v1/CronJob', cronJobPods],
]);

function deploymentsIn(documents: readonly ManifestDocument[]): Set<string> {
  return new Set(
    documents
      .filter((d) => d.apiVersion === 'apps/v1' && d.kind === 'Deployment')
      .map((d) => `${namespaceOf(d.object as PlainObject)}/${nameOf(d.object as PlainObject)}`),
  );
}

function managedByDeployment(document: ManifestDocument, deployments: Set<string>): boolean {
  const controller = controllerOf(document.object as PlainObject);
  if (document.kind !== 'ReplicaSet' || controller?.kind !== 'Deployment') return false;
  return deployments.has(`${namespaceOf(document.object as PlainObject)}/${controller.name}`);
}

/** `suffix` spells the random parts of generated names; by default the same for every run. */
export function expandWorkloads(
  documents: readonly ManifestDocument[],
  suffix: NameSuffix = countingSuffixes(),
): ExpandedWorkload[] {
  const workloads = documents.filter((d) => WORKLOADS.has(`${d.apiVersion}/${d.kind}`));
  // A dump of pods holds no workload: indexing its pods would be all the work, for nothing.
  if (workloads.length === 0) return [];
  const index = clusterIndex(documents);
  const deployments = deploymentsIn(workloads);
  const out: ExpandedWorkload[] = [];
  for (const document of workloads) {
    const expand = WORKLOADS.get(`${document.apiVersion}/${document.kind}`);
    if (expand === undefined || managedByDeployment(document, deployments)) continue;
    try {
      out.push({ document, ...expand(document.object as PlainObject, index, suffix) });
    } catch (error) {
      throw locateError(error, document);
    }
  }
  return out;
}
