/** PersistentVolumeClaims, PersistentVolumes and StorageClasses: what ties a pod's volumes to zones. */
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
  TopologySelectorTerm,
} from '../../domain/volumes.ts';
import {
  type At,
  asFields,
  at,
  defined,
  EMPTY_FIELDS,
  type Fields,
  optionalEnum,
  optionalFields,
  optionalList,
  optionalString,
  optionalStringList,
  requiredString,
  SPEC,
} from './fields.ts';
import { DEFAULT_NAMESPACE, readMetadata } from './metadata.ts';
import { readNodeSelector } from './selectors.ts';

const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'] as const;

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toPersistentVolumeClaim(object: unknown): PersistentVolumeClaim {
  const fields = asFields(object, undefined);
  const meta = readMetadata(fields);
  const spec = optionalFields(fields, 'spec', undefined) ?? EMPTY_FIELDS;
  return defined({
    namespace: meta.namespace ?? DEFAULT_NAMESPACE,
    name: meta.name,
    storageClassName: optionalString(spec, 'storageClassName', SPEC),
    volumeName: optionalString(spec, 'volumeName', SPEC),
  });
}

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toPersistentVolume(object: unknown): PersistentVolume {
  const fields = asFields(object, undefined);
  const meta = readMetadata(fields);
  const spec = optionalFields(fields, 'spec', undefined) ?? EMPTY_FIELDS;
  return defined({
    name: meta.name,
    storageClassName: optionalString(spec, 'storageClassName', SPEC),
    nodeAffinity: readVolumeNodeAffinity(spec, SPEC),
  });
}

function readVolumeNodeAffinity(spec: Fields, parent: At): PersistentVolume['nodeAffinity'] {
  const affinity = optionalFields(spec, 'nodeAffinity', parent);
  if (affinity === undefined) return undefined;
  const position = at(parent, 'nodeAffinity');
  const required = optionalFields(affinity, 'required', position);
  return defined({
    required:
      required === undefined ? undefined : readNodeSelector(required, at(position, 'required')),
  });
}

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toStorageClass(object: unknown): StorageClass {
  const fields = asFields(object, undefined);
  const meta = readMetadata(fields);
  return defined({
    name: meta.name,
    provisioner: requiredString(fields, 'provisioner', undefined),
    volumeBindingMode: optionalEnum(fields, 'volumeBindingMode', undefined, BINDING_MODES),
    allowedTopologies: optionalList(
      fields,
      'allowedTopologies',
      undefined,
      readTopologySelectorTerm,
    ),
  });
}

function readTopologySelectorTerm(item: unknown, position: At): TopologySelectorTerm {
  const fields = asFields(item, position);
  return defined({
    matchLabelExpressions: optionalList(
      fields,
      'matchLabelExpressions',
      position,
      readTopologyRequirement,
    ),
  });
}

function readTopologyRequirement(item: unknown, position: At): { key: string; values: string[] } {
  const fields = asFields(item, position);
  return {
    key: requiredString(fields, 'key', position),
    values: optionalStringList(fields, 'values', position) ?? [],
  };
}
