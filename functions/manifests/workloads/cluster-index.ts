/**
 * What the files already hold that workloads' controllers would otherwise create: pods, the
 * ReplicaSets and Jobs between a workload and its pods, and claims. A `kubectl get -o yaml` dump
 * next to the manifests it was applied from must not count a pod twice.
 */
import type { LabelSelector, Labels } from '../../domain/label-selector.ts';
import type { ManifestDocument } from '../documents.ts';
import { stringMap } from '../kubernetes/schema.ts';
import { type ControllerRef, controllerOf } from './owner-reference.ts';
import { asObject, nameOf, namespaceOf, type PlainObject } from './plain-object.ts';

export interface ExistingPod {
  readonly namespace: string;
  readonly name: string;
  readonly labels: Labels;
  readonly controller?: ControllerRef;
  readonly phase?: string;
}

export interface ClusterIndex {
  readonly pods: readonly ExistingPod[];
  /** `namespace/kind/name` of every ReplicaSet and Job in the files, to its controller if any. */
  readonly parents: ReadonlyMap<string, ControllerRef | undefined>;
  /** `namespace/name` of every PersistentVolumeClaim in the files. */
  readonly claims: ReadonlySet<string>;
}

export type { LabelSelector };

export function objectKey(namespace: string, kind: string, name: string): string {
  return `${namespace}/${kind}/${name}`;
}

function existingPod(object: PlainObject): ExistingPod {
  const labels = stringMap.safeParse(asObject(object.metadata).labels);
  const controller = controllerOf(object);
  const phase = asObject(object.status).phase;
  return {
    namespace: namespaceOf(object),
    name: nameOf(object),
    labels: labels.success ? (labels.data as Labels) : {},
    ...(controller === undefined ? {} : { controller }),
    ...(typeof phase === 'string' ? { phase } : {}),
  };
}

export function clusterIndex(documents: readonly ManifestDocument[]): ClusterIndex {
  const pods: ExistingPod[] = [];
  const parents = new Map<string, ControllerRef | undefined>();
  const claims = new Set<string>();
  for (const { apiVersion, kind, object } of documents) {
    const plain = object as PlainObject;
    if (apiVersion === 'v1' && kind === 'Pod') pods.push(existingPod(plain));
    else if (apiVersion === 'v1' && kind === 'PersistentVolumeClaim')
      claims.add(`${namespaceOf(plain)}/${nameOf(plain)}`);
    else if (kind === 'ReplicaSet' || kind === 'Job')
      parents.set(objectKey(namespaceOf(plain), kind, nameOf(plain)), controllerOf(plain));
  }
  return { pods, parents, claims };
}
