import { describe, expect, it } from 'vitest';
import {
  toPersistentVolume,
  toPersistentVolumeClaim,
  toStorageClass,
} from '../../../functions/manifests/kubernetes/storage.ts';
import { manifestErrorOf, objectOf } from '../manifest-fixtures.ts';

describe('storage objects', () => {
  it('maps a PersistentVolumeClaim, defaulting its namespace', () => {
    // Prepare
    const object = objectOf(`apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data-0
spec:
  storageClassName: gp3
  volumeName: pv-123
  resources:
    requests:
      storage: 10Gi
`);

    // Act
    const claim = toPersistentVolumeClaim(object);

    // Assess
    expect(claim).toEqual({
      namespace: 'default',
      name: 'data-0',
      storageClassName: 'gp3',
      volumeName: 'pv-123',
    });
  });

  it('maps a PersistentVolume with its zonal node affinity', () => {
    // Prepare
    const object = objectOf(`apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-123
spec:
  storageClassName: gp3
  capacity:
    storage: 10Gi
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - key: topology.ebs.csi.aws.com/zone
          operator: In
          values:
          - us-east-1a
`);

    // Act
    const volume = toPersistentVolume(object);

    // Assess
    expect(volume).toEqual({
      name: 'pv-123',
      storageClassName: 'gp3',
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: 'topology.ebs.csi.aws.com/zone', operator: 'In', values: ['us-east-1a'] },
              ],
            },
          ],
        },
      },
    });
  });

  it('maps a StorageClass with its binding mode and allowed topologies', () => {
    // Prepare
    const object = objectOf(`apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: gp3
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
parameters:
  type: gp3
allowedTopologies:
- matchLabelExpressions:
  - key: topology.ebs.csi.aws.com/zone
    values: [us-east-1a, us-east-1b]
`);

    // Act
    const storageClass = toStorageClass(object);

    // Assess
    expect(storageClass).toEqual({
      name: 'gp3',
      provisioner: 'ebs.csi.aws.com',
      volumeBindingMode: 'WaitForFirstConsumer',
      allowedTopologies: [
        {
          matchLabelExpressions: [
            { key: 'topology.ebs.csi.aws.com/zone', values: ['us-east-1a', 'us-east-1b'] },
          ],
        },
      ],
    });
  });

  it('rejects a StorageClass whose binding mode the API does not know', () => {
    // Prepare
    const object = objectOf(
      'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: x\nprovisioner: p\nvolumeBindingMode: Later\n',
    );

    // Act
    const error = manifestErrorOf(() => toStorageClass(object));

    // Assess
    expect(error.message).toBe(
      'volumeBindingMode: volumeBindingMode "Later" is not one of Immediate, WaitForFirstConsumer',
    );
  });
});
