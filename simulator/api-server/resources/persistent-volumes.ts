/** core/v1 persistentvolumes and persistentvolumeclaims: defaults, phase Pending, required fields. */

import { type FieldError, required } from '../field-errors.ts';
import { arrayAt, childObject, type JsonObject, objectAt } from '../json.ts';
import { describeResource } from '../resource-descriptor.ts';

const VOLUME_SOURCES = [
  'awsElasticBlockStore',
  'azureDisk',
  'azureFile',
  'cephfs',
  'cinder',
  'csi',
  'fc',
  'flexVolume',
  'flocker',
  'gcePersistentDisk',
  'glusterfs',
  'hostPath',
  'iscsi',
  'local',
  'nfs',
  'photonPersistentDisk',
  'portworxVolume',
  'quobyte',
  'rbd',
  'scaleIO',
  'storageos',
  'vsphereVolume',
];

function validateVolume(volume: JsonObject): FieldError[] {
  const spec = objectAt(volume, 'spec') ?? {};
  const errors: FieldError[] = [];
  if (arrayAt(spec, 'accessModes').length === 0) errors.push(required('spec.accessModes'));
  if (Object.keys(objectAt(spec, 'capacity') ?? {}).length === 0)
    errors.push(required('spec.capacity'));
  if (!VOLUME_SOURCES.some((source) => spec[source] !== undefined)) {
    errors.push(required('spec', 'must specify a volume type'));
  }
  return errors;
}

function validateClaim(claim: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  if (arrayAt(claim, 'spec.accessModes').length === 0) {
    errors.push(required('spec.accessModes', 'at least 1 access mode is required'));
  }
  if (objectAt(claim, 'spec.resources.requests')?.storage === undefined) {
    errors.push(required('spec.resources[storage]'));
  }
  return errors;
}

export const persistentVolumes = describeResource({
  resource: 'persistentvolumes',
  kind: 'PersistentVolume',
  namespaced: false,
  hasStatus: true,
  strategy: {
    defaults(volume) {
      const spec = childObject(volume, 'spec');
      spec.persistentVolumeReclaimPolicy ??= 'Retain';
      spec.volumeMode ??= 'Filesystem';
    },
    prepareForCreate(volume) {
      volume.status = { phase: 'Pending' };
    },
    validate: validateVolume,
  },
});

export const persistentVolumeClaims = describeResource({
  resource: 'persistentvolumeclaims',
  kind: 'PersistentVolumeClaim',
  namespaced: true,
  hasStatus: true,
  listStrategies: { 'status.conditions': { mergeKey: 'type' } },
  strategy: {
    defaults(claim) {
      childObject(claim, 'spec').volumeMode ??= 'Filesystem';
    },
    prepareForCreate(claim) {
      claim.status = { phase: 'Pending' };
    },
    validate: validateClaim,
  },
});
