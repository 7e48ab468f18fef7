/**
 * A cluster snapshot out of manifest files (docs/design.md §6.1): the kinds the planner reads,
 * mapped to domain types, Karpenter's kinds validated as Karpenter's CRDs validate them; every
 * other kind ignored. Errors name the file, the line and the
 * field. An object defined twice (same kind, namespace and name) is an error naming both places.
 * Deployments, ReplicaSets, StatefulSets, Jobs and CronJobs add the pods (and claims) their
 * controllers would create, less those the files already hold (workloads/expand-workloads.ts).
 */
import type { ClusterSnapshot } from '../domain/cluster-snapshot.ts';
import { type ManifestDocument, readDocuments } from './documents.ts';
import { explainUnrenderedTemplate } from './helm-template.ts';
import { mightMatter } from './ignored-kinds.ts';
import { parseNodeClaim } from './karpenter/node-claim.ts';
import { parseEC2NodeClass } from './karpenter/node-class.ts';
import { parseNodeOverlay } from './karpenter/node-overlay.ts';
import { parseNodePool } from './karpenter/node-pool.ts';
import { movedFieldsIn } from './karpenter/v1-moves.ts';
import { toDaemonSet } from './kubernetes/daemon-set.ts';
import { DEFAULT_NAMESPACE } from './kubernetes/metadata.ts';
import { toNamespace } from './kubernetes/namespace.ts';
import { toNode } from './kubernetes/node.ts';
import { toPod } from './kubernetes/pod.ts';
import { toPodDisruptionBudget } from './kubernetes/pod-disruption-budget.ts';
import { toRuntimeClass } from './kubernetes/runtime-class.ts';
import {
  toPersistentVolume,
  toPersistentVolumeClaim,
  toStorageClass,
} from './kubernetes/storage.ts';
import { parseLocated } from './locate-error.ts';
import { ManifestError } from './manifest-error.ts';
import { isObjectFields } from './object-fields.ts';
import { expandWorkloads } from './workloads/expand-workloads.ts';
import { parseCreated } from './workloads/parse-created.ts';

export interface ManifestFile {
  readonly file: string;
  readonly text: string;
}

/**
 * The snapshot the files describe, less the cluster's limits (a ClusterLimits file is read on its
 * own: `--limits`), with what only files have to say.
 */
export interface ClusterManifests extends Omit<ClusterSnapshot, 'clusterLimits'> {
  /** `group/kind` of each document ignored that could change the answer (`ignored-kinds.ts`). */
  readonly ignoredKinds: readonly string[];
}

type Collected = { -readonly [K in keyof ClusterManifests]: ClusterManifests[K][number][] };

interface KindReader {
  readonly namespaced: boolean;
  /** The only version read, for kinds whose older versions differ in shape. */
  readonly version?: string;
  readonly add: (document: ManifestDocument, into: Collected) => void;
}

function reader(
  namespaced: boolean,
  add: (document: ManifestDocument, into: Collected) => void,
  version?: string,
): KindReader {
  return version === undefined ? { namespaced, add } : { namespaced, add, version };
}

/** Keyed by `group/kind`; the core group is empty. */
const READERS: ReadonlyMap<string, KindReader> = new Map([
  ['/Pod', reader(true, (d, into) => into.pods.push(parseLocated(d, toPod)))],
  ['/Node', reader(false, (d, into) => into.nodes.push(parseLocated(d, toNode)))],
  ['apps/DaemonSet', reader(true, (d, into) => into.daemonSets.push(parseLocated(d, toDaemonSet)))],
  [
    '/PersistentVolumeClaim',
    reader(true, (d, into) =>
      into.persistentVolumeClaims.push(parseLocated(d, toPersistentVolumeClaim)),
    ),
  ],
  [
    '/PersistentVolume',
    reader(false, (d, into) => into.persistentVolumes.push(parseLocated(d, toPersistentVolume))),
  ],
  [
    'storage.k8s.io/StorageClass',
    reader(false, (d, into) => into.storageClasses.push(parseLocated(d, toStorageClass))),
  ],
  [
    'node.k8s.io/RuntimeClass',
    reader(false, (d, into) => into.runtimeClasses.push(parseLocated(d, toRuntimeClass))),
  ],
  ['/Namespace', reader(false, (d, into) => into.namespaces.push(parseLocated(d, toNamespace)))],
  [
    'policy/PodDisruptionBudget',
    reader(
      true,
      (d, into) => into.podDisruptionBudgets.push(parseLocated(d, toPodDisruptionBudget)),
      'v1',
    ),
  ],
  [
    'karpenter.sh/NodePool',
    reader(false, (d, into) => into.nodePools.push(parseLocated(d, parseNodePool)), 'v1'),
  ],
  [
    'karpenter.sh/NodeClaim',
    reader(false, (d, into) => into.nodeClaims.push(parseLocated(d, parseNodeClaim)), 'v1'),
  ],
  [
    'karpenter.k8s.aws/EC2NodeClass',
    reader(false, (d, into) => into.nodeClasses.push(parseLocated(d, parseEC2NodeClass)), 'v1'),
  ],
  [
    'karpenter.sh/NodeOverlay',
    reader(
      false,
      (d, into) => into.nodeOverlays.push(parseLocated(d, parseNodeOverlay)),
      'v1alpha1',
    ),
  ],
]);

/** Reads every file. Throws ManifestError for unreadable input. */
export function loadCluster(files: readonly ManifestFile[]): ClusterManifests {
  try {
    return loadAll(files);
  } catch (error) {
    throw explainUnrenderedTemplate(error, files);
  }
}

function loadAll(files: readonly ManifestFile[]): ClusterManifests {
  const collected = emptyCollection();
  const seen = new Map<string, ManifestDocument>();
  const documents = files.flatMap(({ file, text }) => readDocuments(text, file));
  for (const document of documents) collect(document, collected, seen);
  addWorkloadObjects(documents, collected);
  return collected;
}

function addWorkloadObjects(documents: readonly ManifestDocument[], into: Collected): void {
  for (const workload of expandWorkloads(documents)) {
    const { document, templatePath } = workload;
    for (const object of workload.pods) {
      into.pods.push(parseCreated({ object, document }, templatePath, toPod));
    }
    for (const object of workload.persistentVolumeClaims) {
      const claim = parseCreated(
        { object, document },
        ['spec', 'volumeClaimTemplates'],
        toPersistentVolumeClaim,
      );
      into.persistentVolumeClaims.push(claim);
    }
  }
}

function emptyCollection(): Collected {
  return {
    pods: [],
    nodes: [],
    nodeClaims: [],
    nodePools: [],
    nodeClasses: [],
    nodeOverlays: [],
    daemonSets: [],
    persistentVolumeClaims: [],
    persistentVolumes: [],
    storageClasses: [],
    runtimeClasses: [],
    namespaces: [],
    podDisruptionBudgets: [],
    ignoredKinds: [],
  };
}

function collect(
  document: ManifestDocument,
  into: Collected,
  seen: Map<string, ManifestDocument>,
): void {
  const slash = document.apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : document.apiVersion.slice(0, slash);
  const kindReader = READERS.get(`${group}/${document.kind}`);
  if (kindReader === undefined) {
    if (mightMatter(group, document.kind)) into.ignoredKinds.push(`${group}/${document.kind}`);
    return;
  }
  const version = document.apiVersion.slice(slash + 1);
  if (kindReader.version !== undefined && version !== kindReader.version) {
    const moved = movedFieldsIn(document.kind, document.object).map((move) => `; ${move}`);
    const detail = `${document.kind} ${document.apiVersion} is not supported; write it as ${group}/${kindReader.version}${moved.join('')}`;
    throw new ManifestError(detail, {
      file: document.file,
      line: document.line,
      field: ['apiVersion'],
    });
  }
  kindReader.add(document, into);
  rejectDuplicate(document, `${group}/${document.kind}`, kindReader.namespaced, seen);
}

function rejectDuplicate(
  document: ManifestDocument,
  kind: string,
  namespaced: boolean,
  seen: Map<string, ManifestDocument>,
): void {
  const name = objectName(document, namespaced);
  if (name === undefined) return;
  const key = `${kind}/${name}`;
  const first = seen.get(key);
  if (first === undefined) {
    seen.set(key, document);
    return;
  }
  const detail = `duplicate ${document.kind} ${name}: already defined at ${first.file}:${first.line}`;
  throw new ManifestError(detail, { file: document.file, line: document.line });
}

/** `namespace/name` for namespaced kinds (namespace `default` when absent), else the name. */
function objectName(document: ManifestDocument, namespaced: boolean): string | undefined {
  const { metadata } = document.object;
  if (!isObjectFields(metadata) || typeof metadata.name !== 'string') return undefined;
  if (!namespaced) return metadata.name;
  const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : DEFAULT_NAMESPACE;
  return `${namespace}/${metadata.name}`;
}
