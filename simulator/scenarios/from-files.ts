/**
 * `simulate -f`: the user's own files as a scenario. Everything `plan` reads is read and checked
 * the same way (a bad file is refused with file, line and field before anything runs); the
 * cluster objects seed the simulated API server (existing nodes and their pods, DaemonSets,
 * volumes, namespaces, PodDisruptionBudgets), pending pods and the pods of Deployments,
 * ReplicaSets, StatefulSets, Jobs and CronJobs (less those the files already hold, as `plan`
 * counts them) are the workload, and NodePools, EC2NodeClasses and NodeOverlays go to the state
 * store as the pools API will put them.
 */

import { type ManifestDocument, readDocuments } from '../../functions/manifests/documents.ts';
import { ignoredKindsWarning } from '../../functions/manifests/ignored-kinds.ts';
import { loadCluster, type ManifestFile } from '../../functions/manifests/load-cluster.ts';
import { expandWorkloads } from '../../functions/manifests/workloads/expand-workloads.ts';
import {
  type NameSuffix,
  SUFFIX_ALPHABET,
} from '../../functions/manifests/workloads/name-suffix.ts';
import type { JsonObject } from '../api-server/json.ts';
import type { ResourceName } from '../api-server/resource-names.ts';
import { instancesOfNodes } from './existing-instances.ts';
import { nodeClaimsOfNodes } from './existing-node-claims.ts';
import { type Random, seededRandom } from './random.ts';
import type { Scenario, SeededObject } from './scenario.ts';

/** Kinds seeded into the API server as they are, by `apiVersion/kind`. */
const SEEDED: ReadonlyMap<string, ResourceName> = new Map([
  ['v1/Node', 'nodes'],
  ['v1/Namespace', 'namespaces'],
  ['v1/PersistentVolume', 'persistentvolumes'],
  ['v1/PersistentVolumeClaim', 'persistentvolumeclaims'],
  ['apps/v1/DaemonSet', 'daemonsets'],
  ['storage.k8s.io/v1/StorageClass', 'storageclasses'],
  ['node.k8s.io/v1/RuntimeClass', 'runtimeclasses'],
  ['policy/v1/PodDisruptionBudget', 'poddisruptionbudgets'],
]);

/**
 * With nodes of the files' NodePools to adopt, the run lasts long enough for their pools'
 * `consolidateAfter`, consolidation's validation and the drains to play out.
 */
const ADOPTED_QUIET_SECONDS = 600;
const ADOPTED_MAX_SECONDS = 1800;

/** The object as the API server would hold it: no status-less assumptions, no server fields. */
function cleaned(object: JsonObject): JsonObject {
  const metadata = { ...(object.metadata as JsonObject) };
  for (const field of [
    'uid',
    'resourceVersion',
    'creationTimestamp',
    'generation',
    'managedFields',
  ]) {
    delete metadata[field];
  }
  return { ...object, metadata };
}

/** Generated names from the run's seed: the same seed gives the same pod names. */
function seededSuffixes(random: Random): NameSuffix {
  return (length) =>
    Array.from(
      { length },
      () => SUFFIX_ALPHABET[Math.floor(random() * SUFFIX_ALPHABET.length)],
    ).join('');
}

export interface FileScenarioOptions {
  readonly region: string;
  readonly zones: readonly string[];
}

/** The cluster the files describe, and the pods pending in them. */
interface FileCluster {
  readonly cluster: SeededObject[];
  readonly pending: JsonObject[];
}

function clusterOf(documents: readonly ManifestDocument[], seed: number): FileCluster {
  const cluster: SeededObject[] = [];
  const pending: JsonObject[] = [];
  for (const document of documents) {
    const object = cleaned(document.object as JsonObject);
    const key = `${document.apiVersion}/${document.kind}`;
    const resource = SEEDED.get(key);
    if (resource !== undefined) cluster.push({ resource, object });
    else if (key === 'v1/Pod') {
      const bound = (object.spec as JsonObject | undefined)?.nodeName !== undefined;
      if (bound) cluster.push({ resource: 'pods', object });
      else pending.push(object);
    }
  }
  for (const made of expandWorkloads(documents, seededSuffixes(seededRandom(seed)))) {
    pending.push(...(made.pods as JsonObject[]));
    for (const claim of made.persistentVolumeClaims)
      cluster.push({ resource: 'persistentvolumeclaims', object: claim as JsonObject });
  }
  return { cluster, pending };
}

/**
 * The running nodes' instances, and the NodeClaims of those of the files' NodePools, which the
 * run adopts as Nodesmith's so that consolidation, drift and expiry apply to them.
 */
function existingNodes(documents: readonly ManifestDocument[], cluster: readonly SeededObject[]) {
  const ofKind = (kind: string) =>
    documents.filter((d) => d.kind === kind).map((d) => cleaned(d.object as JsonObject));
  const pools = new Set(ofKind('NodePool').map((p) => String((p.metadata as JsonObject).name)));
  const nodes = cluster.filter((c) => c.resource === 'nodes').map((c) => c.object);
  const nodeClaims = nodeClaimsOfNodes(nodes, ofKind('NodeClaim'), pools);
  const byProviderID = new Map(
    nodeClaims.map((c) => [
      String((c.status as JsonObject).providerID),
      String((c.metadata as JsonObject).name),
    ]),
  );
  return { nodeClaims, instances: instancesOfNodes(nodes, byProviderID) };
}

export function scenarioFromFiles(
  files: readonly ManifestFile[],
  seed: number,
  options: FileScenarioOptions,
): Scenario {
  // The same reading and checks as `plan`: a file plan refuses is refused here, before any work.
  const read = loadCluster(files);
  const ignored = ignoredKindsWarning(read.ignoredKinds);
  if (ignored !== undefined) process.stderr.write(`warning: ${ignored}\n`);
  const documents = files.flatMap((f) => readDocuments(f.text, f.file));
  const { cluster, pending } = clusterOf(documents, seed);
  const { nodeClaims, instances } = existingNodes(documents, cluster);
  return {
    name: 'files',
    region: options.region,
    zones: options.zones,
    manifests: files,
    cluster: [
      ...cluster,
      ...nodeClaims.map((object) => ({ resource: 'nodeclaims' as const, object })),
    ],
    instances,
    adoptKarpenterNodes: true,
    steps: [
      {
        at: 0,
        description: `${pending.length} pods from ${files.map((f) => f.file).join(', ')}`,
        pods: pending,
      },
    ],
    prices: 'list',
    maxSeconds: nodeClaims.length === 0 ? 900 : ADOPTED_MAX_SECONDS,
    ...(nodeClaims.length === 0 ? {} : { quietSeconds: ADOPTED_QUIET_SECONDS }),
  };
}
