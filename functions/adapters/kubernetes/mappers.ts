/**
 * client-node objects as domain types. The readers are the ones `nodesmith plan` uses for
 * `kubectl get -o yaml` dumps (functions/manifests/kubernetes), so a live cluster and a dump of
 * it plan alike; they accept client-node's typed objects, Dates included. Karpenter's NodeClaims
 * come untyped from the custom objects API and are read as `nodesmith plan` reads their dumps
 * (functions/manifests/karpenter). A reader's ManifestError becomes an InvalidConfigError naming
 * the object.
 */
import type {
  V1DaemonSet,
  V1Namespace,
  V1Node,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1Pod,
  V1PodDisruptionBudget,
  V1RuntimeClass,
  V1StorageClass,
} from '@kubernetes/client-node';
import type { DaemonSet } from '../../domain/daemon-set.ts';
import type { Node } from '../../domain/node.ts';
import type { NodeClaim } from '../../domain/node-claim.ts';
import type { Pod } from '../../domain/pod.ts';
import type { PodDisruptionBudget } from '../../domain/pod-disruption-budget.ts';
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  RuntimeClass,
  StorageClass,
} from '../../domain/volumes.ts';
import { parseNodeClaim } from '../../manifests/karpenter/node-claim.ts';
import { toDaemonSet } from '../../manifests/kubernetes/daemon-set.ts';
import { toNamespace } from '../../manifests/kubernetes/namespace.ts';
import { toNode } from '../../manifests/kubernetes/node.ts';
import { toPod } from '../../manifests/kubernetes/pod.ts';
import { toPodDisruptionBudget } from '../../manifests/kubernetes/pod-disruption-budget.ts';
import { toRuntimeClass } from '../../manifests/kubernetes/runtime-class.ts';
import { defined } from '../../manifests/kubernetes/schema.ts';
import {
  toPersistentVolume,
  toPersistentVolumeClaim,
  toStorageClass,
} from '../../manifests/kubernetes/storage.ts';
import { ManifestError } from '../../manifests/manifest-error.ts';
import type { Namespace } from '../../ports/cluster.ts';
import { InvalidConfigError } from '../../ports/errors.ts';

export interface Named {
  readonly metadata?: { readonly name?: string; readonly namespace?: string };
}

function identify(object: Named): string {
  const { name = '<unnamed>', namespace } = object.metadata ?? {};
  return namespace === undefined ? name : `${namespace}/${name}`;
}

function reading<TObject extends Named, TDomain>(
  kind: string,
  read: (object: unknown) => TDomain,
): (object: TObject) => TDomain {
  return (object) => {
    try {
      return read(object);
    } catch (err) {
      if (!(err instanceof ManifestError)) throw err;
      throw new InvalidConfigError(`reading ${kind} ${identify(object)}: ${err.message}`, {
        cause: err,
      });
    }
  };
}

export const fromV1Node: (node: V1Node) => Node = reading('node', toNode);
export const fromV1Pod: (pod: V1Pod) => Pod = reading('pod', toPod);
export const fromV1DaemonSet: (daemonSet: V1DaemonSet) => DaemonSet = reading(
  'daemonset',
  toDaemonSet,
);
export const fromV1PodDisruptionBudget: (budget: V1PodDisruptionBudget) => PodDisruptionBudget =
  reading('poddisruptionbudget', toPodDisruptionBudget);
export const fromV1PersistentVolume: (volume: V1PersistentVolume) => PersistentVolume = reading(
  'persistentvolume',
  toPersistentVolume,
);
export const fromV1PersistentVolumeClaim: (
  claim: V1PersistentVolumeClaim,
) => PersistentVolumeClaim = reading('persistentvolumeclaim', toPersistentVolumeClaim);
export const fromV1StorageClass: (storageClass: V1StorageClass) => StorageClass = reading(
  'storageclass',
  toStorageClass,
);
export const fromV1RuntimeClass: (runtimeClass: V1RuntimeClass) => RuntimeClass = reading(
  'runtimeclass',
  toRuntimeClass,
);
export const fromV1Namespace: (namespace: V1Namespace) => Namespace = reading(
  'namespace',
  toNamespace,
);

/**
 * A NodeClaim checked as Karpenter's CRD checks it, keeping of its metadata what the domain type
 * names: the server's bookkeeping (managedFields, resourceVersion, uid) stays behind.
 */
function toKarpenterNodeClaim(object: unknown): NodeClaim {
  const { metadata, spec, status } = parseNodeClaim(object);
  const { name, labels, annotations, deletionTimestamp, creationTimestamp } = metadata;
  return defined({
    metadata: defined({ name, labels, annotations, deletionTimestamp, creationTimestamp }),
    spec,
    status,
  });
}

export const fromKarpenterNodeClaim: (claim: Named) => NodeClaim = reading(
  'nodeclaim',
  toKarpenterNodeClaim,
);
