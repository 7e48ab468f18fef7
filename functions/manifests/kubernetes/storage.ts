/** PersistentVolumeClaims, PersistentVolumes and StorageClasses: what ties a pod's volumes to zones. */
import * as z from 'zod';
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
  TopologySelectorTerm,
} from '../../domain/volumes.ts';
import { DEFAULT_NAMESPACE, objectMeta } from './metadata.ts';
import { defined, listOf, listOrEmpty, oneOf, optional, readWith, text } from './schema.ts';
import { nodeSelector } from './selectors.ts';

/**
 * The class a claim asks for: the beta annotation, which older manifests still write, wins over
 * `spec.storageClassName` as in Kubernetes' GetPersistentVolumeClaimClass
 * (pkg/apis/core/v1/helper/helpers.go).
 */
const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';

/** The annotations that make a StorageClass the cluster's default (GA and beta spellings). */
const DEFAULT_CLASS_ANNOTATIONS = [
  'storageclass.kubernetes.io/is-default-class',
  'storageclass.beta.kubernetes.io/is-default-class',
];

const claimSchema = z
  .object({
    metadata: objectMeta,
    spec: optional(z.object({ storageClassName: optional(text), volumeName: optional(text) })),
  })
  .transform(
    ({ metadata: meta, spec }): PersistentVolumeClaim =>
      defined({
        namespace: meta.namespace ?? DEFAULT_NAMESPACE,
        name: meta.name,
        storageClassName: meta.annotations[BETA_STORAGE_CLASS] ?? spec?.storageClassName,
        volumeName: spec?.volumeName,
      }),
  );

const volumeSchema = z
  .object({
    metadata: objectMeta,
    spec: optional(
      z.object({
        storageClassName: optional(text),
        nodeAffinity: optional(z.object({ required: optional(nodeSelector) })),
      }),
    ),
  })
  .transform(
    ({ metadata: meta, spec }): PersistentVolume =>
      defined({
        name: meta.name,
        storageClassName: spec?.storageClassName,
        nodeAffinity: spec?.nodeAffinity && defined(spec.nodeAffinity),
      }),
  );

const topologySelectorTerm = z
  .object({
    matchLabelExpressions: listOf(z.object({ key: text, values: listOrEmpty(text) })),
  })
  .transform((term): TopologySelectorTerm => defined(term));

const storageClassSchema = z
  .object({
    metadata: objectMeta,
    provisioner: text,
    volumeBindingMode: optional(oneOf(['Immediate', 'WaitForFirstConsumer'])),
    allowedTopologies: listOf(topologySelectorTerm),
  })
  .transform(
    ({ metadata: meta, ...rest }): StorageClass =>
      defined({
        name: meta.name,
        ...rest,
        isDefault:
          DEFAULT_CLASS_ANNOTATIONS.some((key) => meta.annotations[key] === 'true') || undefined,
      }),
  );

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toPersistentVolumeClaim(object: unknown): PersistentVolumeClaim {
  return readWith(claimSchema, object);
}

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toPersistentVolume(object: unknown): PersistentVolume {
  return readWith(volumeSchema, object);
}

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toStorageClass(object: unknown): StorageClass {
  return readWith(storageClassSchema, object);
}
